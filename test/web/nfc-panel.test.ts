import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AdminListing } from '../../api/contracts/admin/listings';
import type { BindingQrAnswer, NfcTag, TagChoice } from '../../api/contracts/admin/nfc';
import { ApiError } from '../../web/src/lib/api-client';
import { NOT_SAVED, nfcPanelMachine, PHONE_POLL_MS, REASON_REQUIRED } from '../../web/src/features/admin/add-item/nfc-panel-machine';

const NOW = Date.parse('2031-03-01T12:00:00.000Z');
const LISTING = { id: 'l-1', nfcUid: null } as unknown as AdminListing;
const tag = (uid: string, claimCode: string | null = null) => ({ uid, claimCode }) as NfcTag;

function start(options: { listingId?: string | null; pool?: (search: string) => Promise<NfcTag[]>; bind?: (choice: TagChoice) => Promise<AdminListing>; reads?: AdminListing[] } = {}) {
  const binds: TagChoice[] = [];
  const searches: string[] = [];
  const unbinds: string[] = [];
  const reads = [...(options.reads ?? [])];
  const machine = nfcPanelMachine.provide({
    actors: {
      loadPool: fromPromise<NfcTag[], { search: string }>(async ({ input }) => {
        searches.push(input.search);
        return options.pool ? options.pool(input.search) : [tag('04:A1:B2:C3:D4:E5:F6', 'CLAIM-1')];
      }),
      bind: fromPromise<AdminListing, { listingId: string; choice: TagChoice }>(async ({ input }) => {
        binds.push(input.choice);
        return options.bind ? options.bind(input.choice) : ({ ...LISTING, nfcUid: input.choice.uid ?? '04:CC' } as AdminListing);
      }),
      unbind: fromPromise<AdminListing, { listingId: string; reason: string }>(async ({ input }) => {
        unbinds.push(input.reason);
        return LISTING;
      }),
      requestQr: fromPromise<BindingQrAnswer, { listingId: string }>(async () => ({
        url: 'http://localhost/mobile?token=t',
        qrCode: 'data:image/png;base64,AAAA',
        expiresAt: new Date(NOW + 10 * 60_000).toISOString(),
      })),
      readListing: fromPromise<AdminListing, { listingId: string }>(async () => reads.shift() ?? LISTING),
    },
  });
  const actor = createActor(machine, { input: { listingId: options.listingId === undefined ? 'l-1' : options.listingId } });
  const changed: AdminListing[] = [];
  actor.on('changed', (event) => changed.push(event.listing));
  actor.start();
  return { actor, binds, searches, unbinds, changed, context: () => actor.getSnapshot().context };
}

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

describe('the NFC binding panel', () => {
  it("before the listing is saved, each mode says what it needs, in the spec's words", () => {
    const panel = start({ listingId: null });
    panel.actor.send({ type: 'MODE', mode: 'pool' });
    expect(panel.context().error).toBe(NOT_SAVED.pool);
    panel.actor.send({ type: 'MODE', mode: 'manual' });
    expect(panel.context().error).toBe('Listing must be saved before binding NFC tag');
    panel.actor.send({ type: 'MODE', mode: 'phone' });
    expect(panel.context().error).toBe('Listing ID required for phone binding');
    expect(panel.context().mode).toBe('none');
    panel.actor.send({ type: 'SAVED', listingId: 'l-1' });
    panel.actor.send({ type: 'MODE', mode: 'manual' });
    expect(panel.context()).toMatchObject({ mode: 'manual', error: null });
  });

  it('pool: lists the available tags, searches after a pause, and binds the one picked', async () => {
    const panel = start({ pool: async (search) => (search ? [tag('04:BB:00:00:00:00:01')] : [tag('04:A1:B2:C3:D4:E5:F6'), tag('04:BB:00:00:00:00:01')]) });
    panel.actor.send({ type: 'MODE', mode: 'pool' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.context().pool.map((found) => found.uid)).toEqual(['04:A1:B2:C3:D4:E5:F6', '04:BB:00:00:00:00:01']);
    panel.actor.send({ type: 'SEARCH', text: '0' });
    panel.actor.send({ type: 'SEARCH', text: '04:B' });
    await vi.advanceTimersByTimeAsync(300);
    expect(panel.searches).toEqual(['', '04:B']);
    expect(panel.context().pool).toHaveLength(1);
    panel.actor.send({ type: 'PICK', uid: '04:BB:00:00:00:00:01' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.binds).toEqual([{ uid: '04:BB:00:00:00:00:01' }]);
    expect(panel.changed.map((listing) => listing.nfcUid)).toEqual(['04:BB:00:00:00:00:01']);
    expect(panel.context().mode).toBe('none');
  });

  it('manual: a UID or a claim code, checked by the engine\'s rules before any call', async () => {
    const panel = start();
    panel.actor.send({ type: 'MODE', mode: 'manual' });
    panel.actor.send({ type: 'MANUAL.SUBMIT' });
    expect(panel.context().error).toBe('Please enter a valid NFC UID');
    panel.actor.send({ type: 'MANUAL.KIND', kind: 'claimCode' });
    panel.actor.send({ type: 'MANUAL.SUBMIT' });
    expect(panel.context().error).toBe('Please enter a valid claim code');
    expect(panel.binds).toHaveLength(0);
    panel.actor.send({ type: 'MANUAL.TEXT', text: 'prov-7k2q' });
    panel.actor.send({ type: 'MANUAL.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.binds).toEqual([{ claimCode: 'PROV-7K2Q' }]);
  });

  it("a refused bind shows the server's reason and stays in its mode", async () => {
    const panel = start({
      bind: async () => {
        throw new ApiError('Failed to bind NFC tag: Selected tag not found', 404);
      },
    });
    panel.actor.send({ type: 'MODE', mode: 'manual' });
    panel.actor.send({ type: 'MANUAL.TEXT', text: '04:00:00:00:00:00:09' });
    panel.actor.send({ type: 'MANUAL.SUBMIT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.context()).toMatchObject({ mode: 'manual', error: 'Failed to bind NFC tag: Selected tag not found' });
    expect(panel.actor.getSnapshot().matches({ choosing: 'manual' })).toBe(true);
  });

  it('phone: shows the QR code, then notices by itself when the phone has bound a tag', async () => {
    const bound = { ...LISTING, nfcUid: '04:A1:B2:C3:D4:E5:F6' } as AdminListing;
    const panel = start({ reads: [LISTING, bound] });
    panel.actor.send({ type: 'MODE', mode: 'phone' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.context().qr?.qrCode).toBe('data:image/png;base64,AAAA');
    await vi.advanceTimersByTimeAsync(PHONE_POLL_MS);
    expect(panel.changed).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(PHONE_POLL_MS);
    expect(panel.changed).toEqual([bound]);
    expect(panel.context().mode).toBe('none');
  });

  it('phone: an expired code stops asking and offers a new one', async () => {
    const panel = start();
    panel.actor.send({ type: 'MODE', mode: 'phone' });
    await vi.advanceTimersByTimeAsync(10 * 60_000 + PHONE_POLL_MS);
    expect(panel.actor.getSnapshot().matches({ choosing: { phone: 'expired' } })).toBe(true);
    panel.actor.send({ type: 'QR.RENEW' });
    expect(panel.actor.getSnapshot().matches({ choosing: { phone: 'requesting' } })).toBe(true);
  });

  it('unbinding needs a reason', async () => {
    const panel = start();
    panel.actor.send({ type: 'UNBIND' });
    expect(panel.context().error).toBe(REASON_REQUIRED);
    panel.actor.send({ type: 'REASON', text: '  Wrong item  ' });
    panel.actor.send({ type: 'UNBIND' });
    await vi.advanceTimersByTimeAsync(0);
    expect(panel.unbinds).toEqual(['Wrong item']);
    expect(panel.changed).toEqual([LISTING]);
  });
});
