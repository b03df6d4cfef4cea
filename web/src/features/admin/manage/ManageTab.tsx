import { zodResolver } from '@hookform/resolvers/zod';
import { useActor, useMachine } from '@xstate/react';
import { useEffect, useEffectEvent, useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { listingStatusChangeRequestSchema, PUBLICATION_DEFAULTS } from '../../../../../api/contracts/admin/listings';
import { Banner } from '../../../components/Banner';
import { auctionTimelinePath } from '../../../lib/audit-links';
import { formatUsd } from '../../../lib/money';
import type { FiguresSnapshot } from '../dashboard/figures-machine';
import type { TabProps } from '../dashboard/tabs';
import { editPath, openPath } from '../tables/listing-links';
import { Pager, SearchForm, SkeletonRows, StatusFilter, TableRegion } from '../../../components/TableParts';
import { ActionDialog } from './ActionDialog';
import type { AdminListing } from './api';
import { LISTING_STATUSES, readManageState, SORTS, STATUS_LABELS, toListingsQuery, writeManageState, type ManageState, type SortId } from './listings-query';
import { listingActionMachine, listingsTableMachine } from './manage-machines';
import { canEdit, canPublish, canWithdraw } from './row-actions';
import { FailedWithRetry } from '../../../components/FailedWithRetry';
import { overdueCountActor } from '../orders/orders-machines';
import './manage.css';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const COLUMNS = 7;

/** The dashboard's Manage tab: the cards (analytics, bulk import, orders, the marketplace), then every listing with its actions. */
export function ManageTab({ figures, onCatalogueChanged }: TabProps) {
  return (
    <div className="manage">
      <ManageCards snapshot={figures} />
      {/* A published or withdrawn listing changes the cards' counts too. */}
      <ListingsTable onChanged={onCatalogueChanged} />
    </div>
  );
}

function ManageCards({ snapshot }: { snapshot: FiguresSnapshot }) {
  const { figures } = snapshot.context;
  // Not a catalogue figure: read on its own, and left out if it cannot be.
  const [overdue] = useActor(overdueCountActor);
  const cards = [
    {
      title: 'Analytics Dashboard',
      badge: 'Live Data',
      to: '/admin/analytics',
      figure: figures ? formatUsd(figures.sales.revenue) : null,
      caption: figures ? `revenue from ${figures.sales.itemsSold} ${figures.sales.itemsSold === 1 ? 'sale' : 'sales'}` : null,
      text: 'Revenue, bids and sales per day, and the top lots.',
    },
    {
      title: 'Bulk Import',
      badge: 'Beta Feature',
      to: '/admin/bulk-import',
      figure: figures ? String(figures.totals.pendingItems) : null,
      caption: 'pending listings',
      text: 'Import a CSV or Excel sheet: each row becomes a draft to add photos to.',
    },
    {
      title: 'Orders',
      badge: 'After the Sale',
      to: '/admin/orders',
      figure: overdue.status === 'done' ? String(overdue.output) : overdue.status === 'error' ? undefined : null,
      caption: overdue.output === 1 ? 'order overdue' : 'orders overdue',
      testId: 'manage-overdue-orders',
      text: 'Record payments, ship, and settle overdue orders: cancel, offer to the runner-up, relist.',
    },
    {
      title: 'View Marketplace',
      badge: 'Public View',
      to: '/marketplace',
      figure: figures ? String(figures.totals.liveItems) : null,
      caption: 'live at auction',
      text: 'The marketplace as buyers see it.',
    },
  ];
  return (
    <>
      {/* A failed reading says so once, with Try Again, in the dashboard's header above. */}
      <ul className="manage-cards" aria-label="Admin pages">
        {cards.map((card) => (
          <li key={card.title} className="card manage-card">
            <h2 className="manage-card__title">
              <Link to={card.to} className="manage-card__link">
                {card.title}
              </Link>
            </h2>
            <span className="badge manage-card__badge">{card.badge}</span>
            {card.figure === undefined ? null : card.figure === null ? (
              <div className="skeleton manage-card__skeleton" aria-hidden="true" />
            ) : (
              <p className="manage-card__figure">
                <strong data-testid={card.testId ?? 'manage-figure'}>{card.figure}</strong> <span className="muted">{card.caption}</span>
              </p>
            )}
            <p className="muted manage-card__text">{card.text}</p>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The search as the API takes it (printable text, at most 200 characters). */
const listingSearchSchema = z.object({ search: z.string().max(200, 'At most 200 characters').optional() });

function ListingsTable({ onChanged }: { onChanged: () => void }) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readManageState(params), [params]);
  const query = useMemo(() => toListingsQuery(state), [state]);
  const [table, sendTable] = useMachine(listingsTableMachine, { input: { query } });
  const [action, sendAction, actionActor] = useMachine(listingActionMachine);

  useEffect(() => {
    sendTable({ type: 'QUERY_CHANGED', query });
  }, [query, sendTable]);
  const changed = useEffectEvent(() => {
    sendTable({ type: 'RELOAD' });
    onChanged();
  });
  useEffect(() => {
    const subscription = actionActor.on('changed', () => changed());
    return () => subscription.unsubscribe();
  }, [actionActor]);

  const navigate = (next: ManageState) => setParams(writeManageState(params, next));
  const { answer, error } = table.context;
  const loading = table.matches('loading');
  const acting = !action.matches('idle');
  const filtered = state.search !== '' || state.status !== null;

  return (
    <section className="manage__listings" aria-labelledby="manage-listings-title">
      <h2 id="manage-listings-title">All listings</h2>
      {action.context.notice && (
        <Banner kind="success" onDismiss={() => sendAction({ type: 'DISMISS' })}>
          {action.context.notice}
        </Banner>
      )}
      <div className="admin-toolbar">
        <SearchForm
          name="Listing search"
          label="Search listings"
          hint="Player, team, title or description"
          value={state.search}
          schema={listingSearchSchema}
          onSearch={(search) => navigate({ ...state, search, page: 0 })}
        />
        <StatusFilter id="listing-status-filter" statuses={LISTING_STATUSES} labels={STATUS_LABELS} value={state.status} onChange={(status) => navigate({ ...state, status, page: 0 })} />
        <div className="field admin-toolbar__select">
          <label htmlFor="listing-sort">Sort by</label>
          <select id="listing-sort" className="select" value={state.sort} onChange={(event) => navigate({ ...state, sort: event.target.value as SortId, page: 0 })}>
            {SORTS.map((sort) => (
              <option key={sort.id} value={sort.id}>
                {sort.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      <p className="admin-count" role="status" data-testid="listing-count">
        {loading && !answer ? 'Loading listings…' : answer ? `${answer.totalElements} ${answer.totalElements === 1 ? 'listing' : 'listings'}` : ''}
      </p>

      {table.matches('failed') && (
        <FailedWithRetry message={error} onRetry={() => sendTable({ type: 'RETRY' })} />
      )}

      <TableRegion label="Listings" busy={loading}>
        <table>
          <thead>
            <tr>
              <th scope="col">Listing</th>
              <th scope="col">Status</th>
              <th scope="col">Price</th>
              <th scope="col">NFC tag</th>
              <th scope="col">Created</th>
              <th scope="col">Ends</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {answer ? (
              answer.content.map((listing) => (
                <ListingRow
                  key={listing.id}
                  listing={listing}
                  busy={acting}
                  onPublish={() => sendAction({ type: 'PUBLISH', listing })}
                  onWithdraw={() => sendAction({ type: 'WITHDRAW', listing })}
                />
              ))
            ) : loading ? (
              <SkeletonRows rows={5} columns={COLUMNS} />
            ) : null}
          </tbody>
        </table>
        {answer && answer.content.length === 0 && (
          <div className="admin-table__empty">
            <p>{filtered ? 'No listings match.' : state.page > 0 ? 'Nothing on this page.' : 'No listings yet: create one in Add Item or import a sheet.'}</p>
            {(filtered || state.page > 0) && (
              <button type="button" className="button" onClick={() => navigate({ status: null, search: '', sort: state.sort, page: 0 })}>
                Show all listings
              </button>
            )}
          </div>
        )}
      </TableRegion>
      <Pager label="Listing pages" page={state.page} totalPages={answer?.totalPages ?? 0} busy={loading} onPage={(page) => navigate({ ...state, page })} />

      {(action.matches('confirmingPublish') || action.matches('publishing')) && action.context.listing && (
        <PublishDialog
          listing={action.context.listing}
          busy={action.matches('publishing')}
          failure={action.context.failure}
          onConfirm={() => sendAction({ type: 'CONFIRM' })}
          onCancel={() => sendAction({ type: 'CANCEL' })}
        />
      )}
      {(action.matches('confirmingWithdrawal') || action.matches('withdrawing')) && action.context.listing && (
        <WithdrawDialog
          listing={action.context.listing}
          busy={action.matches('withdrawing')}
          failure={action.context.failure}
          onConfirm={(reason) => sendAction({ type: 'CONFIRM_WITHDRAWAL', reason })}
          onCancel={() => sendAction({ type: 'CANCEL' })}
        />
      )}
    </section>
  );
}

function ListingRow({ listing, busy, onPublish, onWithdraw }: { listing: AdminListing; busy: boolean; onPublish: () => void; onWithdraw: () => void }) {
  const editable = canEdit(listing.status);
  return (
    <tr data-testid="listing-row">
      <td>
        <div className="manage-listing">
          {listing.mediaUrls[0] ? (
            <img className="manage-listing__thumb" src={listing.mediaUrls[0]} alt="" loading="lazy" width={40} height={40} />
          ) : (
            <span className="manage-listing__thumb" aria-hidden="true" />
          )}
          <span className="manage-listing__title">{listing.title}</span>
        </div>
      </td>
      <td>
        <span className={`admin-status admin-status--${listing.status.toLowerCase()}`}>{STATUS_LABELS[listing.status]}</span>
      </td>
      <td className="admin-table__nowrap">{formatUsd(listing.price)}</td>
      <td className="admin-table__mono">{listing.nfcUid ?? <span className="muted">—</span>}</td>
      <td className="admin-table__nowrap">
        <time dateTime={listing.createdAt}>{dateTime.format(new Date(listing.createdAt))}</time>
      </td>
      <td className="admin-table__nowrap">
        {listing.endsAt ? <time dateTime={listing.endsAt}>{dateTime.format(new Date(listing.endsAt))}</time> : <span className="muted">—</span>}
      </td>
      <td>
        <div className="manage-actions" role="group" aria-label={`Actions for ${listing.title}`}>
          {/* Until it is published the listing opens where it is edited. */}
          {editable ? (
            <Link className="button manage-actions__button" to={editPath(listing.id)}>
              Edit
            </Link>
          ) : (
            <Link className="button manage-actions__button" to={openPath(listing)}>
              Open
            </Link>
          )}
          {/* Once published, its auction can be replayed step by step. */}
          {listing.auctionId && (
            <Link className="button manage-actions__button" to={auctionTimelinePath(listing.auctionId)}>
              Timeline
            </Link>
          )}
          {canPublish(listing.status) && (
            <button type="button" className="button button--primary manage-actions__button" disabled={busy} onClick={onPublish}>
              Publish
            </button>
          )}
          {canWithdraw(listing.status) && (
            <button type="button" className="button manage-actions__button manage-actions__withdraw" disabled={busy} onClick={onWithdraw}>
              Withdraw
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

const hours = (value: number) => (value % 24 === 0 ? `${value / 24} ${value === 24 ? 'day' : 'days'}` : `${value} hours`);

/** The default rule set, as the auction will be scheduled with it. */
const DEFAULT_RULES = [
  'Starting price: the asking price',
  `Opens now and runs ${hours(PUBLICATION_DEFAULTS.durationHours)}`,
  'Every bid adds at least $1',
  `Soft close: a bid in the last ${PUBLICATION_DEFAULTS.softClose.windowSeconds / 60} minutes extends the end, by at most ${hours(PUBLICATION_DEFAULTS.softClose.maxExtensionHours)} in all`,
  'No reserve, no buy-now price',
];

function PublishDialog({ listing, busy, failure, onConfirm, onCancel }: { listing: AdminListing; busy: boolean; failure: string | null; onConfirm: () => void; onCancel: () => void }) {
  return (
    <ActionDialog title="Publish to LIVE?" busy={busy} onCancel={onCancel}>
      <p>
        <strong>{listing.title}</strong> goes live at auction now, for {formatUsd(listing.price)}, with the default rules:
      </p>
      <ul className="admin-dialog__list">
        {DEFAULT_RULES.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
      <p className="muted">To choose other rules, publish it from its edit view instead.</p>
      {failure && <Banner kind="error">{failure}</Banner>}
      <div className="admin-dialog__actions">
        <button type="button" className="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button--primary" disabled={busy} onClick={onConfirm}>
          {busy ? 'Publishing…' : 'Publish to LIVE'}
        </button>
      </div>
    </ActionDialog>
  );
}

/** The contract's reason, required to withdraw. */
const withdrawSchema = z.object({ reason: listingStatusChangeRequestSchema.shape.reason.unwrap().trim().min(1, 'A reason is required') });
type WithdrawForm = z.infer<typeof withdrawSchema>;

function WithdrawDialog({
  listing,
  busy,
  failure,
  onConfirm,
  onCancel,
}: {
  listing: AdminListing;
  busy: boolean;
  failure: string | null;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { register, handleSubmit, formState } = useForm<WithdrawForm>({ resolver: zodResolver(withdrawSchema), defaultValues: { reason: '' } });
  const error = formState.errors.reason?.message;
  return (
    <ActionDialog title="Withdraw listing" busy={busy} onCancel={onCancel}>
      <form noValidate aria-label="Withdraw listing" onSubmit={handleSubmit(({ reason }) => onConfirm(reason))}>
        <p>
          <strong>{listing.title}</strong> leaves the sale for good
          {listing.status === 'LIVE' ? ': its auction is cancelled with it.' : '.'}
        </p>
        <div className="field">
          <label htmlFor={id}>Reason for withdrawing</label>
          <textarea
            id={id}
            className="textarea"
            rows={3}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            readOnly={busy}
            {...register('reason')}
          />
          {error && (
            <span id={`${id}-error`} className="field__error">
              {error}
            </span>
          )}
          <span id={`${id}-hint`} className="field__hint">
            Kept in the listing’s history.
          </span>
        </div>
        {failure && <Banner kind="error">{failure}</Banner>}
        <div className="admin-dialog__actions">
          <button type="button" className="button" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button manage-actions__withdraw" disabled={busy}>
            {busy ? 'Withdrawing…' : 'Withdraw listing'}
          </button>
        </div>
      </form>
    </ActionDialog>
  );
}
