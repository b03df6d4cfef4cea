import { useMachine } from '@xstate/react';
import { useEffect, useId, useRef, type ChangeEvent, type ReactNode } from 'react';
import { useForm, useWatch, type ChangeHandler } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import type { BindingLink } from '../../../../api/contracts/admin/nfc';
import { Banner } from '../../components/Banner';
import { FormField } from '../../components/FormField';
import { Spinner } from '../../components/Spinner';
import { formatTagInput, parseTagInput, type TagInputKind, type ValidTagInput } from '../../lib/nfc-input';
import { mobileBindingMachine, type LinkProblem } from './mobile-binding-machine';
import { webNfcAvailable } from './nfc-scan';
import './mobile.css';

const PROBLEMS: Record<LinkProblem, { heading: string; advice: string }> = {
  used: {
    heading: 'This link has already been used',
    advice: 'A tag has already been bound with it, and a link binds one tag only. If another tag is needed, ask the admin for a new QR code.',
  },
  expired: {
    heading: 'This link has expired',
    advice: 'Binding links work for 15 minutes. Ask the admin to show a new QR code and scan it again.',
  },
  wrong: {
    heading: 'This link is not valid',
    advice: 'It may be incomplete or mistyped. Scan the QR code on the admin’s screen again.',
  },
};

const clockTime = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

/** /mobile?token=...: the page an admin's QR code opens on a phone, to bind an NFC tag to a listing. */
export function MobilePage() {
  const [params] = useSearchParams();
  const [snapshot, send] = useMachine(mobileBindingMachine, { input: { token: params.get('token'), nfcAvailable: webNfcAvailable() } });
  const { link, problem, bound, error, scanHint, nfcAvailable } = snapshot.context;

  let content: ReactNode;
  if (snapshot.matches('start') || snapshot.matches('loading')) {
    content = <Spinner label="Opening the binding link" />;
  } else if (snapshot.matches('loadFailed')) {
    content = (
      <div>
        <Banner kind="error">{error}</Banner>
        <button type="button" className="button" onClick={() => send({ type: 'RETRY' })}>
          Try Again
        </button>
      </div>
    );
  } else if (snapshot.matches('linkProblem') && problem) {
    content = (
      <Outcome heading={PROBLEMS[problem].heading} tone="problem">
        <p>{PROBLEMS[problem].advice}</p>
      </Outcome>
    );
  } else if (snapshot.matches('listingTaken') && link) {
    content = (
      <Outcome heading="This listing cannot take a tag now" tone="problem">
        <p>
          <strong>{link.title}</strong>{' '}
          {link.status === 'NFC_BOUND' ? 'already has an NFC tag bound.' : `can no longer be changed: it is ${link.status.toLowerCase().replace('_', ' ')}.`}
        </p>
      </Outcome>
    );
  } else if (snapshot.matches('bound') && bound && link) {
    content = (
      <Outcome heading="Tag bound" tone="done">
        <p>
          Tag <span className="mobile-bind__uid">{bound.uid}</span> is now bound to <strong>{link.title}</strong>.
        </p>
        <p className="muted">The admin’s screen shows the tag as bound. You can close this page.</p>
      </Outcome>
    );
  } else if (link) {
    const scanning = snapshot.matches('scanning');
    const submitting = snapshot.matches('submitting');
    content = (
      <>
        <ListingCard link={link} />
        {error && (
          <Banner kind="error" onDismiss={() => send({ type: 'DISMISS' })}>
            {error}
          </Banner>
        )}
        {nfcAvailable && (
          <section className="card mobile-bind__section" aria-labelledby="scan-heading">
            <h2 id="scan-heading">Scan the tag</h2>
            {scanning ? (
              <>
                <p role="status" className="mobile-bind__listening">
                  Hold the tag against the back of your phone…
                </p>
                {scanHint && <p className="field__hint">{scanHint}</p>}
                <button type="button" className="button button--block" onClick={() => send({ type: 'CANCEL_SCAN' })}>
                  Cancel scan
                </button>
              </>
            ) : (
              <>
                <p className="muted">Tap Scan tag, then hold the tag against the back of your phone.</p>
                <button type="button" className="button button--primary button--block" onClick={() => send({ type: 'SCAN' })} disabled={submitting}>
                  Scan tag
                </button>
              </>
            )}
          </section>
        )}
        <TypedTagForm nfcAvailable={nfcAvailable} submitting={submitting} onSubmit={(tag) => send({ type: 'SUBMIT', tag })} />
      </>
    );
  }

  return (
    <div className="mobile-bind">
      <h1>Bind an NFC tag</h1>
      {content}
    </div>
  );
}

function ListingCard({ link }: { link: BindingLink }) {
  return (
    <section className="card mobile-bind__section" aria-labelledby="listing-heading">
      <p className="mobile-bind__eyebrow">Tagging this listing</p>
      <h2 id="listing-heading" className="mobile-bind__title">
        {link.title}
      </h2>
      <p className="muted mobile-bind__expiry">This link works until {clockTime.format(new Date(link.expiresAt))}.</p>
    </section>
  );
}

/** Where the page ends (bound, or a link that cannot bind): its heading takes the focus, so it is read out. */
function Outcome({ heading, tone, children }: { heading: string; tone: 'done' | 'problem'; children: ReactNode }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section className={`card mobile-bind__outcome mobile-bind__outcome--${tone}`} aria-labelledby="outcome-heading">
      <span className="mobile-bind__outcome-icon" aria-hidden="true">
        {tone === 'done' ? '✓' : '!'}
      </span>
      <h2 id="outcome-heading" ref={headingRef} tabIndex={-1}>
        {heading}
      </h2>
      {children}
    </section>
  );
}

interface TypedTag {
  kind: TagInputKind;
  text: string;
}

const KINDS: ReadonlyArray<{ kind: TagInputKind; label: string; field: string; hint: string }> = [
  { kind: 'uid', label: 'UID', field: 'Tag UID', hint: 'Hex pairs, e.g. 04:A2:B3:C4:D5:E6:F7' },
  { kind: 'claimCode', label: 'Claim code', field: 'Tag claim code', hint: 'As printed on the tag’s card' },
];

/** The tag typed: its UID (shown as upper-case colon pairs) or its card's claim code (upper case). */
function TypedTagForm({ nfcAvailable, submitting, onSubmit }: { nfcAvailable: boolean; submitting: boolean; onSubmit: (tag: ValidTagInput) => void }) {
  const id = useId();
  const { register, handleSubmit, control, formState, getValues, setValue } = useForm<TypedTag>({ defaultValues: { kind: 'uid', text: '' } });
  const kind = useWatch({ control, name: 'kind' });
  const chosen = KINDS.find((option) => option.kind === kind)!;
  const textField = register('text', {
    validate: (text, values) => {
      const parsed = parseTagInput(text, values.kind);
      return parsed.kind === 'invalid' ? parsed.message : true;
    },
  });
  const kindField = register('kind', {
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      setValue('text', formatTagInput(getValues('text'), event.target.value as TagInputKind).text, { shouldValidate: formState.isSubmitted });
    },
  });
  // Formatted as typed, the caret kept in place.
  const onTextChange: ChangeHandler = (event) => {
    const input = event.target as HTMLInputElement;
    const formatted = formatTagInput(input.value, getValues('kind'), input.selectionStart ?? input.value.length);
    if (formatted.text !== input.value) {
      input.value = formatted.text;
      input.setSelectionRange(formatted.caret, formatted.caret);
    }
    return textField.onChange(event);
  };

  return (
    <section className="card mobile-bind__section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{nfcAvailable ? 'Or type the tag' : 'Type the tag'}</h2>
      {!nfcAvailable && <p className="muted">This browser cannot scan NFC tags: type the tag’s UID or the claim code printed on its card.</p>}
      <form
        aria-label="Bind a typed tag"
        noValidate
        onSubmit={handleSubmit((values) => onSubmit(parseTagInput(values.text, values.kind) as ValidTagInput))}
      >
        {/* Disabled as a whole while the bind is on its way. */}
        <fieldset className="mobile-bind__fields" disabled={submitting}>
          <fieldset className="mobile-bind__kinds">
            <legend>What you type</legend>
            {KINDS.map((option) => (
              <label key={option.kind} className="mobile-bind__kind">
                <input type="radio" value={option.kind} {...kindField} />
                {option.label}
              </label>
            ))}
          </fieldset>
          <FormField
            label={chosen.field}
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            hint={<span className="field__hint">{chosen.hint}</span>}
            error={formState.errors.text?.message}
            registration={{ ...textField, onChange: onTextChange }}
          />
          <button type="submit" className="button button--primary button--block">
            {submitting ? 'Binding…' : 'Bind tag'}
          </button>
        </fieldset>
      </form>
    </section>
  );
}
