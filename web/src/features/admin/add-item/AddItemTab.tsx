import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useEffectEvent, useState } from 'react';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import { JERSEY_CONDITIONS, JERSEY_SIZES, JERSEY_TEAMS, type JerseyForm } from '../../../../../api/contracts/admin/jersey-form';
import { DEFAULT_AFTER_SALE_TERMS, PUBLICATION_DEFAULTS, type AdminListing, type PublicationRequest } from '../../../../../api/contracts/admin/listings';
import { Banner } from '../../../components/Banner';
import { FormField } from '../../../components/FormField';
import { SelectField } from '../../../components/SelectField';
import { Spinner } from '../../../components/Spinner';
import { TextAreaField } from '../../../components/TextAreaField';
import { listingPath } from '../../../lib/listing';
import type { TabProps } from '../dashboard/tabs';
import { MediaTiles } from '../media/MediaTiles';
import { createJerseyListing, publishListing, readListing, reviseJerseyListing } from './api';
import { EMPTY_ITEM, fieldErrorsOf, itemValuesOf, jerseyFormOf, publicationOf, type ItemField, type ItemFormValues } from './form-values';
import { NfcPanel } from './NfcPanel';
import { publishFlowMachine } from './publish-flow-machine';
import './add-item.css';

const flowMachine = publishFlowMachine.provide({
  actors: {
    createListing: fromPromise(({ input }: { input: JerseyForm }) => createJerseyListing(input)),
    reviseListing: fromPromise(({ input }: { input: { listingId: string; form: JerseyForm } }) => reviseJerseyListing(input.listingId, input.form)),
    publishListing: fromPromise(({ input }: { input: { listingId: string; rules: PublicationRequest } }) => publishListing(input.listingId, input.rules)),
  },
});

const TEAM_OPTIONS = Object.entries(JERSEY_TEAMS).map(([value, label]) => ({ value, label }));
const SIZE_OPTIONS = JERSEY_SIZES.map((size) => ({ value: size, label: size.toUpperCase() }));
const CONDITION_LABELS: Record<(typeof JERSEY_CONDITIONS)[number], string> = { new: 'New', 'like-new': 'Like new', good: 'Good', fair: 'Fair' };
const CONDITION_OPTIONS = JERSEY_CONDITIONS.map((condition) => ({ value: condition, label: CONDITION_LABELS[condition] }));
const INCREMENT_OPTIONS = [
  { value: 'FLAT_ONE_DOLLAR', label: 'Every bid adds at least $1' },
  { value: 'EBAY', label: "eBay's steps (from $0.05 to $100, by price)" },
];

/**
 * Add Item: the jersey form, its media, the auction's rules, the NFC binding panel, and Save
 * Listing / Publish to LIVE. Opened with ?listing=<id>, it edits that saved listing.
 */
export function AddItemTab({ onCatalogueChanged }: Pick<TabProps, 'onCatalogueChanged'>) {
  const [search] = useSearchParams();
  const listingId = search.get('listing');
  const [loaded, setLoaded] = useState<{ id: string; listing: AdminListing | null; error: string | null } | null>(null);

  useEffect(() => {
    if (!listingId) return;
    const controller = new AbortController();
    readListing(listingId, controller.signal).then(
      (listing) => setLoaded({ id: listingId, listing, error: null }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ id: listingId, listing: null, error: error instanceof Error ? error.message : 'Failed to load the listing' });
      },
    );
    return () => controller.abort();
  }, [listingId]);

  if (!listingId) return <ItemEditor key="new" listing={null} onCatalogueChanged={onCatalogueChanged} />;
  if (loaded?.id !== listingId) return <Spinner label="Loading the listing" />;
  if (loaded.error || !loaded.listing) return <Banner kind="error">{loaded.error ?? 'Listing not found'}</Banner>;
  const values = itemValuesOf(loaded.listing);
  if (!values) return <Banner kind="info">This listing was not made with the jersey form, so it cannot be edited here.</Banner>;
  if (loaded.listing.status !== 'DRAFT' && loaded.listing.status !== 'SAVED' && loaded.listing.status !== 'NFC_BOUND') {
    return <Banner kind="info">This listing is {loaded.listing.status.toLowerCase()}: it can no longer be edited.</Banner>;
  }
  return <ItemEditor key={listingId} listing={loaded.listing} initialValues={values} onCatalogueChanged={onCatalogueChanged} />;
}

function ItemEditor({
  listing,
  initialValues = EMPTY_ITEM,
  onCatalogueChanged,
}: {
  listing: AdminListing | null;
  initialValues?: ItemFormValues;
  onCatalogueChanged: () => void;
}) {
  const flow = useActorRef(flowMachine, { input: { listing } });
  // A save, a binding or a publication changes the dashboard's counts.
  const changed = useEffectEvent(onCatalogueChanged);
  useEffect(() => {
    const subscription = flow.on('catalogueChanged', () => changed());
    return () => subscription.unsubscribe();
  }, [flow]);
  const state = useSelector(flow, (snapshot) => ({
    listing: snapshot.context.listing,
    published: snapshot.context.published,
    banner: snapshot.context.banner,
    fieldErrors: snapshot.context.fieldErrors,
    busy: snapshot.hasTag('busy'),
    saving: snapshot.matches({ notSaved: 'saving' }) || snapshot.matches({ saved: 'revising' }),
    publishing: snapshot.matches({ saved: 'publishing' }),
    isPublished: snapshot.matches('published'),
    isSaved: snapshot.matches('saved') || snapshot.matches('published'),
    bound: snapshot.matches({ saved: 'bound' }),
  }));
  const form = useForm<ItemFormValues>({ defaultValues: initialValues });
  const { register, handleSubmit, setError, clearErrors, reset, formState, control } = form;
  const [mediaIds, setMediaIds] = useState<string[]>(listing?.mediaIds ?? []);
  const [mediaKey, setMediaKey] = useState(0);

  // What the server refused, at its fields.
  useEffect(() => {
    for (const { field, message } of fieldErrorsOf(state.fieldErrors)) setError(field as keyof ItemFormValues, { message });
  }, [state.fieldErrors, setError]);

  const showErrors = (errors: ReadonlyArray<{ field: ItemField; message: string }>) => {
    for (const { field, message } of errors) setError(field as keyof ItemFormValues, { message });
  };

  const save = handleSubmit((values) => {
    clearErrors();
    const checked = jerseyFormOf(values, mediaIds);
    if ('errors' in checked) return showErrors(checked.errors);
    flow.send({ type: 'SAVE', form: checked.form });
  });

  const publish = handleSubmit((values) => {
    const checked = publicationOf(values);
    if ('errors' in checked) return showErrors(checked.errors);
    flow.send({ type: 'PUBLISH', rules: checked.rules });
  });

  const startOver = () => {
    flow.send({ type: 'START_OVER' });
    reset(EMPTY_ITEM);
    setMediaIds([]);
    setMediaKey((key) => key + 1);
  };

  const error = (field: keyof ItemFormValues) => formState.errors[field]?.message;
  const mediaError = formState.errors.root?.message ?? state.fieldErrors.find((problem) => problem.field === 'mediaIds')?.message;
  const timing = useWatch({ control, name: 'timing' });
  const softClose = useWatch({ control, name: 'softClose' });
  const saved = state.isSaved;
  const locked = state.busy || state.isPublished;

  return (
    <form className="add-item" aria-label="Add Item" noValidate onSubmit={save}>
      {state.banner && (
        <Banner kind={state.banner.kind} onDismiss={() => flow.send({ type: 'BANNER.DISMISS' })}>
          {state.banner.text}
        </Banner>
      )}
      {state.isPublished && state.published && (
        <div className="card add-item__done">
          <p>
            <Link to={listingPath(state.published.listing)}>{state.published.listing.title}</Link> is live until{' '}
            {new Date(state.published.auction.endsAt).toLocaleString('en-US')}.
          </p>
          <button type="button" className="button" onClick={startOver}>
            Add another item
          </button>
        </div>
      )}

      <fieldset className="card add-item__section" disabled={locked}>
        <legend>Basic Information</legend>
        <div className="add-item__grid">
          <FormField label="Player name" registration={register('playerName')} error={error('playerName')} required autoComplete="off" />
          <FormField label="Jersey number" registration={register('jerseyNumber')} error={error('jerseyNumber')} required inputMode="numeric" />
          <SelectField label="Team" registration={register('team')} error={error('team')} options={TEAM_OPTIONS} placeholder="Select a team" required />
          <SelectField label="Size" registration={register('size')} error={error('size')} options={SIZE_OPTIONS} placeholder="Select a size" required />
          <SelectField label="Condition" registration={register('condition')} error={error('condition')} options={CONDITION_OPTIONS} placeholder="Select a condition" required />
        </div>
      </fieldset>

      <fieldset className="card add-item__section" disabled={locked}>
        <legend>Game Information</legend>
        <div className="add-item__grid">
          <FormField label="Game title" registration={register('gameTitle')} error={error('gameTitle')} placeholder="Super Bowl LV" />
          <FormField label="Game date" type="date" registration={register('gameDate')} error={error('gameDate')} />
          <FormField label="Opponent" registration={register('opponent')} error={error('opponent')} />
          <FormField label="Venue" registration={register('venue')} error={error('venue')} />
        </div>
      </fieldset>

      <fieldset className="card add-item__section" disabled={locked}>
        <legend>Player Stats (optional)</legend>
        <div className="add-item__grid">
          <FormField label="Touchdowns" registration={register('touchdowns')} error={error('touchdowns')} inputMode="numeric" />
          <FormField label="Passing yards" registration={register('passingYards')} error={error('passingYards')} inputMode="numeric" />
          <FormField label="Completions" registration={register('completions')} error={error('completions')} inputMode="numeric" />
        </div>
      </fieldset>

      <fieldset className="card add-item__section" disabled={locked}>
        <legend>Description</legend>
        <TextAreaField label="Description" registration={register('description')} error={error('description')} rows={5} />
      </fieldset>

      <section className="card add-item__section" aria-labelledby="add-item-media">
        <h3 id="add-item-media" className="add-item__heading">
          Media Upload
        </h3>
        <MediaTiles
          key={mediaKey}
          initial={listing ? listing.mediaIds.map((mediaId, index) => ({ mediaId, url: listing.mediaUrls[index] ?? '' })) : []}
          onChange={setMediaIds}
          disabled={locked}
        />
        {mediaError && (
          <p className="field__error" role="alert">
            {mediaError}
          </p>
        )}
      </section>

      <fieldset className="card add-item__section" disabled={locked}>
        <legend>Auction</legend>
        <p className="muted add-item__note">
          Chosen when you publish. Defaults: {PUBLICATION_DEFAULTS.durationHours / 24} days, every bid adds at least $1, and a bid in the last{' '}
          {PUBLICATION_DEFAULTS.softClose.windowSeconds / 60} minutes moves the end (by at most {PUBLICATION_DEFAULTS.softClose.maxExtensionHours} hours); the winner pays a{' '}
          {DEFAULT_AFTER_SALE_TERMS.buyersPremiumBasisPoints / 100}% buyer's premium and has {DEFAULT_AFTER_SALE_TERMS.paymentWindowSeconds / 86_400} days to pay.
        </p>
        <div className="add-item__grid">
          <FormField label="Starting price ($)" registration={register('price')} error={error('price')} inputMode="decimal" hint={<span className="field__hint">Also the asking price; $0 when empty.</span>} />
          <TimingChoice register={register} />
          {timing === 'duration' ? (
            <FormField label="Duration (hours)" registration={register('durationHours')} error={error('durationHours')} inputMode="decimal" />
          ) : (
            <FormField label="Ends at" type="datetime-local" registration={register('endsAt')} error={error('endsAt')} />
          )}
          <SelectField label="Bid increments" registration={register('incrementTable')} error={error('incrementTable')} options={INCREMENT_OPTIONS} />
          <FormField label="Reserve price ($, optional)" registration={register('reservePrice')} error={error('reservePrice')} inputMode="decimal" hint={<span className="field__hint">Hidden from bidders; they see only whether it is met.</span>} />
          <FormField label="Buy-now price ($, optional)" registration={register('buyNowPrice')} error={error('buyNowPrice')} inputMode="decimal" hint={<span className="field__hint">Offered until the first bid (with a reserve: until it is met).</span>} />
          <FormField label="Buyer's premium (%)" registration={register('buyersPremiumPercent')} error={error('buyersPremiumPercent')} inputMode="decimal" hint={<span className="field__hint">Added to the hammer price on the winner's invoice; 0 to 50.</span>} />
          <FormField label="Payment window (hours)" registration={register('paymentWindowHours')} error={error('paymentWindowHours')} inputMode="decimal" hint={<span className="field__hint">How long the winner has to pay before the order is overdue.</span>} />
        </div>
        <div className="add-item__check">
          <input id="add-item-soft-close" type="checkbox" {...register('softClose')} />
          <label htmlFor="add-item-soft-close">Soft close: a late bid moves the end</label>
        </div>
        {softClose && (
          <div className="add-item__grid">
            <FormField label="Soft-close window (seconds)" registration={register('windowSeconds')} error={error('windowSeconds')} inputMode="numeric" />
            <FormField label="Longest extension (hours)" registration={register('maxExtensionHours')} error={error('maxExtensionHours')} inputMode="decimal" />
          </div>
        )}
      </fieldset>

      {/* A tag binds to a saved listing: until then the panel says so. */}
      <NfcPanel listing={saved ? state.listing : null} disabled={locked} onChanged={(changed) => flow.send({ type: 'TAG.CHANGED', listing: changed })} />

      <div className="add-item__actions">
        <button type="submit" className="button" disabled={locked}>
          {state.saving ? 'Saving…' : 'Save Listing'}
        </button>
        <button type="button" className="button button--primary" disabled={locked || !saved || !state.bound} onClick={publish}>
          {state.publishing ? 'Publishing…' : 'Publish to LIVE'}
        </button>
      </div>
    </form>
  );
}

function TimingChoice({ register }: { register: UseFormRegister<ItemFormValues> }) {
  return (
    <fieldset className="add-item__timing">
      <legend>Length</legend>
      <label>
        <input type="radio" value="duration" {...register('timing')} /> A duration
      </label>
      <label>
        <input type="radio" value="end" {...register('timing')} /> An end date
      </label>
    </fieldset>
  );
}
