import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import type { AdminListing } from '../../../../../api/contracts/admin/listings';
import type { NfcTag, TagChoice } from '../../../../../api/contracts/admin/nfc';
import { Banner } from '../../../components/Banner';
import { formatTagInput, type TagInputKind } from '../../../lib/nfc-input';
import { availableTags, bindingQrCode, bindTag, readListing, unbindTag } from './api';
import { nfcPanelMachine, type BindingMode } from './nfc-panel-machine';

const panelMachine = nfcPanelMachine.provide({
  actors: {
    loadPool: fromPromise(({ input }: { input: { search: string } }) => availableTags(input.search)),
    bind: fromPromise(({ input }: { input: { listingId: string; choice: TagChoice } }) => bindTag(input.listingId, input.choice)),
    unbind: fromPromise(({ input }: { input: { listingId: string; reason: string } }) => unbindTag(input.listingId, input.reason)),
    requestQr: fromPromise(({ input }: { input: { listingId: string } }) => bindingQrCode(input.listingId)),
    readListing: fromPromise(({ input }: { input: { listingId: string } }): Promise<AdminListing> => readListing(input.listingId)),
  },
});

const MODES: ReadonlyArray<{ mode: BindingMode; label: string }> = [
  { mode: 'none', label: 'None' },
  { mode: 'phone', label: 'Phone' },
  { mode: 'pool', label: 'Tag pool' },
  { mode: 'manual', label: 'Manual' },
];

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** The NFC binding panel: Bound or Unbound, and the ways to bind (phone, pool, manual) until bound. */
export function NfcPanel({ listing, disabled, onChanged }: { listing: AdminListing | null; disabled: boolean; onChanged: (listing: AdminListing) => void }) {
  const actor = useActorRef(panelMachine, { input: { listingId: listing?.id ?? null } });
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const step = useSelector(actor, (snapshot) => ({
    busy: snapshot.matches('binding') || snapshot.matches('unbinding'),
    loadingPool: snapshot.matches({ choosing: { pool: 'loading' } }),
    qrExpired: snapshot.matches({ choosing: { phone: 'expired' } }),
  }));
  const ids = useId();
  const listingId = listing?.id ?? null;

  useEffect(() => {
    if (listingId) actor.send({ type: 'SAVED', listingId });
  }, [actor, listingId]);
  useEffect(() => {
    const subscription = actor.on('changed', ({ listing: changed }) => onChanged(changed));
    return () => subscription.unsubscribe();
  }, [actor, onChanged]);

  const bound = listing?.nfcUid ?? null;
  return (
    <section className="card add-item__section nfc-panel" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="add-item__heading">
        NFC tag
      </h3>
      {bound ? (
        <p className="nfc-panel__status nfc-panel__status--bound" data-testid="nfc-status">
          Bound <code>{bound}</code>
        </p>
      ) : (
        <p className="nfc-panel__status" data-testid="nfc-status">
          Unbound - All listings must have an NFC tag
        </p>
      )}
      {context.error && <Banner kind="error">{context.error}</Banner>}

      {bound ? (
        !disabled && (
          <div className="nfc-panel__unbind">
            <div className="field">
              <label htmlFor={`${ids}-reason`}>Reason to unbind</label>
              <input id={`${ids}-reason`} className="input" value={context.reason} onChange={(event) => actor.send({ type: 'REASON', text: event.target.value })} />
            </div>
            <button type="button" className="button" disabled={step.busy} onClick={() => actor.send({ type: 'UNBIND' })}>
              {step.busy ? 'Unbinding…' : 'Unbind tag'}
            </button>
          </div>
        )
      ) : (
        <>
          <fieldset className="nfc-panel__modes" disabled={disabled || step.busy}>
            <legend>Bind a tag by</legend>
            {MODES.map(({ mode, label }) => (
              <label key={mode}>
                <input type="radio" name={`${ids}-mode`} value={mode} checked={context.mode === mode} onChange={() => actor.send({ type: 'MODE', mode })} /> {label}
              </label>
            ))}
          </fieldset>
          {context.mode === 'pool' && <PoolChoice ids={ids} search={context.search} pool={context.pool} loading={step.loadingPool} busy={step.busy} send={actor.send} />}
          {context.mode === 'manual' && (
            <ManualEntry ids={ids} kind={context.manualKind} text={context.manualText} busy={step.busy} send={actor.send} />
          )}
          {context.mode === 'phone' && (
            <div className="nfc-panel__phone">
              {context.qr ? (
                <>
                  <img src={context.qr.qrCode} width={200} height={200} alt="QR code: open it on a phone to bind a tag to this listing" />
                  <p className="muted">
                    Scan with a phone to bind its tag. {step.qrExpired ? 'This code has expired.' : `Valid until ${timeFormat.format(new Date(context.qr.expiresAt))}.`} This panel shows
                    Bound by itself once the phone is done.
                  </p>
                  {step.qrExpired && (
                    <button type="button" className="button" onClick={() => actor.send({ type: 'QR.RENEW' })}>
                      New code
                    </button>
                  )}
                </>
              ) : (
                !context.error && <p className="muted">Making a QR code…</p>
              )}
            </div>
          )}
        </>
      )}
    </section>
  );
}

type Send = ActorRefFrom<typeof panelMachine>['send'];

function PoolChoice({ ids, search, pool, loading, busy, send }: { ids: string; search: string; pool: readonly NfcTag[]; loading: boolean; busy: boolean; send: Send }) {
  return (
    <div className="nfc-panel__pool">
      <div className="field">
        <label htmlFor={`${ids}-search`}>Search tags by UID or claim code</label>
        <input id={`${ids}-search`} className="input" type="search" value={search} onChange={(event) => send({ type: 'SEARCH', text: event.target.value })} />
      </div>
      {loading && pool.length === 0 ? (
        <p className="muted">Loading available tags…</p>
      ) : pool.length === 0 ? (
        <p className="muted">No available tags{search ? ' match this search' : ''}.</p>
      ) : (
        <ul className="nfc-panel__list" aria-label="Available tags">
          {pool.map((tag) => (
            <li key={tag.uid}>
              <code>{tag.uid}</code>
              {tag.claimCode && <span className="muted"> · {tag.claimCode}</span>}
              <button type="button" className="button" disabled={busy} onClick={() => send({ type: 'PICK', uid: tag.uid })} aria-label={`Bind ${tag.uid}`}>
                Bind
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ManualEntry({ ids, kind, text, busy, send }: { ids: string; kind: TagInputKind; text: string; busy: boolean; send: Send }) {
  return (
    // Not a form of its own: it sits inside the listing's form, so Enter here binds instead of saving.
    <div className="nfc-panel__manual" role="group" aria-label="Bind a tag by hand">
      <fieldset className="nfc-panel__kinds">
        <legend>The tag's</legend>
        <label>
          <input type="radio" name={`${ids}-kind`} checked={kind === 'uid'} onChange={() => send({ type: 'MANUAL.KIND', kind: 'uid' })} /> UID
        </label>
        <label>
          <input type="radio" name={`${ids}-kind`} checked={kind === 'claimCode'} onChange={() => send({ type: 'MANUAL.KIND', kind: 'claimCode' })} /> Claim code
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor={`${ids}-manual`}>{kind === 'uid' ? 'NFC UID' : 'Claim code'}</label>
        <input
          id={`${ids}-manual`}
          className="input"
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(event) => send({ type: 'MANUAL.TEXT', text: formatTagInput(event.target.value, kind).text })}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            send({ type: 'MANUAL.SUBMIT' });
          }}
        />
      </div>
      <button type="button" className="button" disabled={busy} onClick={() => send({ type: 'MANUAL.SUBMIT' })}>
        {busy ? 'Binding…' : 'Bind tag'}
      </button>
    </div>
  );
}
