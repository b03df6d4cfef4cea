import { zodResolver } from '@hookform/resolvers/zod';
import { useMachine } from '@xstate/react';
import { useEffect, useEffectEvent, useId, useMemo, useState } from 'react';
import { useForm, type ChangeHandler } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { nfcTagsQuerySchema, provisionTagRequestSchema, type ProvisionTagRequest } from '../../../../../api/contracts/admin/nfc';
import { Banner } from '../../../components/Banner';
import { FormField } from '../../../components/FormField';
import { formatTagInput, parseTagInput } from '../../../lib/nfc-input';
import { openPath } from '../tables/listing-links';
import { Pager, SearchForm, SkeletonRows, StatusFilter, TableRegion } from '../../../components/TableParts';
import type { BoundListing, NfcTag, TagsQuery } from './api';
import { provisionTagMachine, tagsTableMachine, type ProvisionField } from './tags-machines';
import { custodyLink, readTagsQuery, TAG_STATUSES, writeTagsQuery } from './tags-query';
import { FailedWithRetry } from '../../../components/FailedWithRetry';
import './nfc-tags.css';

const createdAt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const STATUS_LABELS = { AVAILABLE: 'Available', BOUND: 'Bound' } as const;
const COLUMNS = 6;

/** The dashboard's NFC Tags tab: provision a tag, and the pool with its filter, search and pages (kept in the URL). */
export function NfcTagsTab() {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readTagsQuery(params), [params]);
  const [table, sendTable] = useMachine(tagsTableMachine, { input: { query } });
  const [newTagUid, setNewTagUid] = useState<string | null>(null);

  useEffect(() => {
    sendTable({ type: 'QUERY_CHANGED', query });
  }, [query, sendTable]);

  // A new tag is the newest: the unfiltered first page shows it at the top.
  const showNewTag = (tag: NfcTag) => {
    setNewTagUid(tag.uid);
    setParams(writeTagsQuery(params, { status: null, search: '', page: 0 }));
    sendTable({ type: 'RELOAD' });
  };

  const navigate = (next: TagsQuery) => setParams(writeTagsQuery(params, next));
  const { answer, error } = table.context;
  const loading = table.matches('loading');

  return (
    <div className="nfc-tags">
      <ProvisionForm onProvisioned={showNewTag} />

      <section className="nfc-tags__pool" aria-labelledby="tag-pool-title">
        <h2 id="tag-pool-title">Tag pool</h2>
        <div className="admin-toolbar">
          <SearchForm
            name="Tag search"
            label="Search by UID or claim code"
            hint="Part of a UID, with or without colons, or of a claim code"
            value={query.search}
            schema={tagSearchSchema}
            onSearch={(search) => navigate({ ...query, search, page: 0 })}
          />
          <StatusFilter id="tag-status-filter" statuses={TAG_STATUSES} labels={STATUS_LABELS} value={query.status} onChange={(status) => navigate({ ...query, status, page: 0 })} />
        </div>

        <p className="admin-count" role="status" data-testid="tag-count">
          {loading && !answer ? 'Loading tags…' : answer ? `${answer.tags.totalElements} ${answer.tags.totalElements === 1 ? 'tag' : 'tags'}` : ''}
        </p>

        {table.matches('failed') && (
          <FailedWithRetry message={error} onRetry={() => sendTable({ type: 'RETRY' })} />
        )}

        <TableRegion label="NFC tags" busy={loading}>
          <table>
            <thead>
              <tr>
                <th scope="col">UID</th>
                <th scope="col">Claim code</th>
                <th scope="col">Status</th>
                <th scope="col">Bound listing</th>
                <th scope="col">Created</th>
                <th scope="col">Chain of custody</th>
              </tr>
            </thead>
            <tbody>
              {answer ? (
                answer.tags.content.map((tag) => (
                  <TagRow
                    key={tag.uid}
                    tag={tag}
                    listing={tag.listingId ? answer.listings[tag.listingId] : undefined}
                    isNew={tag.uid === newTagUid}
                  />
                ))
              ) : loading ? (
                <SkeletonRows rows={5} columns={COLUMNS} />
              ) : null}
            </tbody>
          </table>
          {answer && answer.tags.content.length === 0 && (
            <div className="admin-table__empty">
              <p>{query.search || query.status ? 'No tags match.' : 'No tags in the pool yet: provision the first one above.'}</p>
              {(query.search || query.status || query.page > 0) && (
                <button type="button" className="button" onClick={() => navigate({ status: null, search: '', page: 0 })}>
                  Show all tags
                </button>
              )}
            </div>
          )}
        </TableRegion>
        <Pager
          label="NFC tag pages"
          page={query.page}
          totalPages={answer?.tags.totalPages ?? 0}
          busy={loading}
          onPage={(page) => navigate({ ...query, page })}
        />
      </section>
    </div>
  );
}

/** The contract's own rule for the search (letters, digits, colons, dashes, spaces). */
const tagSearchSchema = z.object({ search: nfcTagsQuerySchema.shape.search });

function TagRow({ tag, listing, isNew }: { tag: NfcTag; listing: BoundListing | undefined; isNew: boolean }) {
  const custody = custodyLink(tag, listing);
  return (
    <tr className={isNew ? 'nfc-tags__new' : undefined} data-testid="tag-row">
      <td className="admin-table__mono">{tag.uid}</td>
      <td className="admin-table__mono">{tag.claimCode ?? <span className="muted">—</span>}</td>
      <td>
        <span className={`admin-status admin-status--${tag.status.toLowerCase()}`}>{STATUS_LABELS[tag.status]}</span>
        {isNew && <span className="visually-hidden"> (just provisioned)</span>}
      </td>
      <td className="admin-table__title">
        {tag.listingId === null ? (
          <span className="muted">—</span>
        ) : listing ? (
          <Link to={openPath(listing)}>{listing.title}</Link>
        ) : (
          <span className="admin-table__mono">{tag.listingId}</span>
        )}
      </td>
      <td className="admin-table__nowrap">
        <time dateTime={tag.createdAt}>{createdAt.format(new Date(tag.createdAt))}</time>
      </td>
      <td className="admin-table__nowrap">
        {custody.page ? (
          <Link to={custody.href} aria-label={`Chain of custody of ${tag.uid}`}>
            Chain of custody
          </Link>
        ) : (
          // The public record as the API gives it (JSON), opened beside the dashboard.
          <a href={custody.href} target="_blank" rel="noreferrer" aria-label={`Chain of custody of ${tag.uid} (JSON, opens in a new tab)`}>
            Chain of custody <span aria-hidden="true">(JSON)</span>
          </a>
        )}
      </td>
    </tr>
  );
}

/** UID required and read by the engine's rule; claim code optional, read alike when given. */
const provisionFormSchema = z.object({
  uid: provisionTagRequestSchema.shape.uid.superRefine((text, context) => {
    const parsed = text.trim() === '' ? { kind: 'invalid' as const, message: 'UID is required' } : parseTagInput(text, 'uid');
    if (parsed.kind === 'invalid') context.addIssue({ code: 'custom', message: parsed.message });
  }),
  claimCode: z
    .string()
    .max(100)
    .superRefine((text, context) => {
      const parsed = text.trim() === '' ? null : parseTagInput(text, 'claimCode');
      if (parsed?.kind === 'invalid') context.addIssue({ code: 'custom', message: parsed.message });
    }),
});
type ProvisionFormValues = z.infer<typeof provisionFormSchema>;

function toProvisionRequest(values: ProvisionFormValues): ProvisionTagRequest {
  const uid = parseTagInput(values.uid, 'uid');
  const claimCode = values.claimCode.trim() === '' ? null : parseTagInput(values.claimCode, 'claimCode');
  return {
    uid: uid.kind === 'uid' ? uid.uid : values.uid,
    ...(claimCode ? { claimCode: claimCode.kind === 'claimCode' ? claimCode.claimCode : values.claimCode } : {}),
  };
}

/** Provisioning a tag: the machine makes the call; the form empties once its tag is in the pool, ready for the next one. */
function ProvisionForm({ onProvisioned }: { onProvisioned: (tag: NfcTag) => void }) {
  const titleId = useId();
  const [snapshot, send, actor] = useMachine(provisionTagMachine);
  const { provisioned, failure } = snapshot.context;
  const busy = snapshot.matches('provisioning');
  const { register, handleSubmit, formState, reset, setFocus } = useForm<ProvisionFormValues>({
    resolver: zodResolver(provisionFormSchema),
    defaultValues: { uid: '', claimCode: '' },
  });

  const provisionedNow = useEffectEvent((tag: NfcTag) => {
    reset();
    onProvisioned(tag);
  });
  useEffect(() => {
    const subscription = actor.on('provisioned', ({ tag }) => provisionedNow(tag));
    return () => subscription.unsubscribe();
  }, [actor]);
  // The button that was pressed is disabled while the call runs: focus goes on to the next tag's UID.
  useEffect(() => {
    if (provisioned) setFocus('uid');
  }, [provisioned, setFocus]);

  const field = (name: ProvisionField) => {
    const registration = register(name);
    // Shown as typed: a UID as upper-case colon pairs, a claim code in upper case; the caret stays put.
    const onChange: ChangeHandler = (event) => {
      const input = event.target as HTMLInputElement;
      const formatted = formatTagInput(input.value, name, input.selectionStart ?? input.value.length);
      if (formatted.text !== input.value) {
        input.value = formatted.text;
        input.setSelectionRange(formatted.caret, formatted.caret);
      }
      send({ type: 'FIELD_EDITED', field: name });
      return registration.onChange(event);
    };
    return { ...registration, onChange };
  };
  const errorAt = (name: ProvisionField) => formState.errors[name]?.message ?? (failure?.field === name ? failure.message : undefined);

  return (
    <section className="card nfc-tags__provision" aria-labelledby={titleId}>
      <h2 id={titleId}>Provision a tag</h2>
      <p className="muted">Add a new tag to the pool: its UID, and the claim code printed on its card if it has one.</p>
      {provisioned && (
        <Banner kind="success" onDismiss={() => send({ type: 'DISMISS' })}>
          NFC tag {provisioned.uid} added to the pool.
        </Banner>
      )}
      {failure && failure.field === null && <Banner kind="error">{failure.message}</Banner>}
      <form aria-label="Provision a tag" noValidate onSubmit={handleSubmit((values) => send({ type: 'PROVISION', request: toProvisionRequest(values) }))}>
        <fieldset className="nfc-tags__fields" disabled={busy}>
          <FormField
            label="UID"
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            placeholder="04:A2:B3:C4:D5:E6:F7"
            hint={<span className="field__hint">4 to 10 bytes of hex, any spelling: 04a2b3…, 04-A2-…, 04:A2:…</span>}
            error={errorAt('uid')}
            registration={field('uid')}
          />
          <FormField
            label="Claim code (optional)"
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            hint={<span className="field__hint">As printed on the tag’s card; no two tags share one</span>}
            error={errorAt('claimCode')}
            registration={field('claimCode')}
          />
          <button type="submit" className="button button--primary nfc-tags__submit">
            {busy ? 'Provisioning…' : 'Provision Tag'}
          </button>
        </fieldset>
      </form>
    </section>
  );
}
