import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type AnyEventObject } from 'xstate';
import type { BindingLink, TagBindingAnswer, TagChoice } from '../../api/contracts/admin/nfc';
import { ApiError } from '../../web/src/lib/api-client';
import { linkProblemOf, mobileBindingMachine, TAG_UNREADABLE_HINT, TAG_WITHOUT_UID } from '../../web/src/features/mobile/mobile-binding-machine';
import { scanFailureMessage } from '../../web/src/features/mobile/nfc-scan';

const TOKEN = 'k3Jd9sQ0pX7vL2mN4bC6zR8tY1wE5aU0iO3gH7fD9sA';
const LINK: BindingLink = {
  listingId: 'listing-1',
  title: 'Signed Match Ball',
  slug: 'signed-match-ball',
  status: 'SAVED',
  expiresAt: '2031-05-01T09:15:00.000Z',
};

const used = () => new ApiError('This binding link has already been used', 410, 'BINDING_LINK_USED');
const expired = () => new ApiError('This binding link has expired', 410, 'BINDING_LINK_EXPIRED');
const unknown = () => new ApiError('Binding link not found', 404, 'BINDING_LINK_NOT_FOUND');

interface Options {
  token?: string | null;
  nfcAvailable?: boolean;
  load?: () => Promise<BindingLink>;
  bind?: (choice: TagChoice) => Promise<TagBindingAnswer>;
}

interface FakeScan {
  readonly send: (event: AnyEventObject) => void;
  stopped: boolean;
}

function start(options: Options = {}) {
  const loads: string[] = [];
  const binds: Array<{ token: string; choice: TagChoice }> = [];
  const scans: FakeScan[] = [];
  const machine = mobileBindingMachine.provide({
    actors: {
      loadLink: fromPromise<BindingLink, { token: string }>(async ({ input }) => {
        loads.push(input.token);
        return options.load ? options.load() : LINK;
      }),
      bindTag: fromPromise<TagBindingAnswer, { token: string; choice: TagChoice }>(async ({ input }) => {
        binds.push(input);
        if (options.bind) return options.bind(input.choice);
        return { listingId: LINK.listingId, uid: input.choice.uid ?? '04:A2:B3:C4:D5:E6:F7', status: 'BOUND', at: '2031-05-01T09:01:00.000Z' };
      }),
      // NDEFReader, as a callback actor the test drives.
      scanTag: fromCallback(({ sendBack }) => {
        const scan: FakeScan = { send: sendBack, stopped: false };
        scans.push(scan);
        return () => {
          scan.stopped = true;
        };
      }),
    },
  });
  const actor = createActor(machine, { input: { token: options.token === undefined ? TOKEN : options.token, nfcAvailable: options.nfcAvailable ?? false } });
  actor.start();
  return {
    actor,
    loads,
    binds,
    scans,
    state: () => actor.getSnapshot(),
    context: () => actor.getSnapshot().context,
    settled: () => new Promise((resolve) => setTimeout(resolve, 0)),
  };
}

async function ready(options: Options = {}) {
  const page = start(options);
  await page.settled();
  expect(page.state().matches('ready')).toBe(true);
  return page;
}

describe('opening the link', () => {
  it('loads what the token is for and waits for the tag', async () => {
    const page = start();
    expect(page.state().matches('loading')).toBe(true);
    await page.settled();
    expect(page.loads).toEqual([TOKEN]);
    expect(page.state().matches('ready')).toBe(true);
    expect(page.context().link).toEqual(LINK);
  });

  it('calls a link without a token wrong, without asking the server', async () => {
    const page = start({ token: null });
    await page.settled();
    expect(page.state().matches('linkProblem')).toBe(true);
    expect(page.context().problem).toBe('wrong');
    expect(page.loads).toEqual([]);
  });

  it('tells a used, an expired and a wrong link apart', async () => {
    const cases: Array<[string, () => Error, string]> = [
      ['used', used, 'used'],
      ['expired', expired, 'expired'],
      ['unknown token', unknown, 'wrong'],
      ['token the API cannot read', () => new ApiError('params/token must NOT have more than 200 characters', 400, 'VALIDATION_ERROR'), 'wrong'],
      ['listing gone', () => new ApiError('Listing not found', 404, 'LISTING_NOT_FOUND'), 'wrong'],
    ];
    for (const [what, error, problem] of cases) {
      const page = start({ load: () => Promise.reject(error()) });
      await page.settled();
      expect(page.state().matches('linkProblem'), what).toBe(true);
      expect(page.context().problem, what).toBe(problem);
      expect(page.state().status, what).toBe('done');
    }
  });

  it('offers Try Again when the server could not be reached, and loads again', async () => {
    let attempts = 0;
    const page = start({
      load: () => (++attempts === 1 ? Promise.reject(new ApiError('Network error', 0, 'NETWORK')) : Promise.resolve(LINK)),
    });
    await page.settled();
    expect(page.state().matches('loadFailed')).toBe(true);
    expect(page.context().error).toBe('Network error');
    page.actor.send({ type: 'RETRY' });
    await page.settled();
    expect(page.state().matches('ready')).toBe(true);
    expect(page.context().error).toBeNull();
    expect(page.loads).toHaveLength(2);
  });

  it('stops at a listing that no longer takes a tag (bound another way, or published)', async () => {
    for (const status of ['NFC_BOUND', 'LIVE'] as const) {
      const page = start({ load: async () => ({ ...LINK, status }) });
      await page.settled();
      expect(page.state().matches('listingTaken'), status).toBe(true);
      expect(page.context().link?.status).toBe(status);
    }
  });
});

describe('binding a typed tag', () => {
  it('binds a UID through the link and ends bound', async () => {
    const page = await ready();
    page.actor.send({ type: 'SUBMIT', tag: { kind: 'uid', uid: '04:A2:B3:C4:D5:E6:F7' } });
    expect(page.state().matches('submitting')).toBe(true);
    await page.settled();
    expect(page.binds).toEqual([{ token: TOKEN, choice: { uid: '04:A2:B3:C4:D5:E6:F7' } }]);
    expect(page.state().matches('bound')).toBe(true);
    expect(page.context().bound).toMatchObject({ listingId: LINK.listingId, uid: '04:A2:B3:C4:D5:E6:F7', status: 'BOUND' });
    expect(page.state().status).toBe('done');
  });

  it('binds a claim code as the claim code', async () => {
    const page = await ready();
    page.actor.send({ type: 'SUBMIT', tag: { kind: 'claimCode', claimCode: 'PRV-7F3A' } });
    await page.settled();
    expect(page.binds).toEqual([{ token: TOKEN, choice: { claimCode: 'PRV-7F3A' } }]);
    expect(page.state().matches('bound')).toBe(true);
  });

  it('shows a refused bind with the server\'s words and keeps the link usable', async () => {
    let attempts = 0;
    const page = await ready({
      bind: async (choice) => {
        if (++attempts === 1) throw new ApiError('Selected tag not found', 404, 'NFC_TAG_NOT_FOUND');
        return { listingId: LINK.listingId, uid: choice.uid!, status: 'BOUND', at: '2031-05-01T09:01:00.000Z' };
      },
    });
    page.actor.send({ type: 'SUBMIT', tag: { kind: 'uid', uid: '04:00:00:00' } });
    await page.settled();
    expect(page.state().matches('ready')).toBe(true);
    expect(page.context().error).toBe('Selected tag not found');

    page.actor.send({ type: 'DISMISS' });
    expect(page.context().error).toBeNull();
    page.actor.send({ type: 'SUBMIT', tag: { kind: 'uid', uid: '04:A2:B3:C4' } });
    expect(page.context().error).toBeNull();
    await page.settled();
    expect(page.state().matches('bound')).toBe(true);
  });

  it('says "Failed to bind NFC tag" when no answer came', async () => {
    const page = await ready({ bind: () => Promise.reject(new Error('socket hang up')) });
    page.actor.send({ type: 'SUBMIT', tag: { kind: 'uid', uid: '04:A2:B3:C4' } });
    await page.settled();
    expect(page.context().error).toBe('Failed to bind NFC tag');
  });

  it('ends at the link\'s problem when the link was used or expired meanwhile', async () => {
    for (const [error, problem] of [
      [used, 'used'],
      [expired, 'expired'],
    ] as const) {
      const page = await ready({ bind: () => Promise.reject(error()) });
      page.actor.send({ type: 'SUBMIT', tag: { kind: 'uid', uid: '04:A2:B3:C4' } });
      await page.settled();
      expect(page.state().matches('linkProblem')).toBe(true);
      expect(page.context().problem).toBe(problem);
    }
  });
});

describe('scanning with Web NFC', () => {
  it('offers no scan where the browser has no NDEFReader', async () => {
    const page = await ready({ nfcAvailable: false });
    page.actor.send({ type: 'SCAN' });
    expect(page.state().matches('ready')).toBe(true);
    expect(page.scans).toHaveLength(0);
  });

  it('binds the UID the tag tells, in upper-case colon pairs, and stops listening', async () => {
    const page = await ready({ nfcAvailable: true });
    page.actor.send({ type: 'SCAN' });
    expect(page.state().matches('scanning')).toBe(true);
    expect(page.scans).toHaveLength(1);
    page.scans[0]!.send({ type: 'TAG_READ', serialNumber: '04:a2:b3:c4:d5:e6:f7' });
    expect(page.scans[0]!.stopped).toBe(true);
    await page.settled();
    expect(page.binds).toEqual([{ token: TOKEN, choice: { uid: '04:A2:B3:C4:D5:E6:F7' } }]);
    expect(page.state().matches('bound')).toBe(true);
  });

  it('keeps listening after a tag it could not read, with a hint', async () => {
    const page = await ready({ nfcAvailable: true });
    page.actor.send({ type: 'SCAN' });
    page.scans[0]!.send({ type: 'TAG_UNREADABLE' });
    expect(page.state().matches('scanning')).toBe(true);
    expect(page.context().scanHint).toBe(TAG_UNREADABLE_HINT);
    page.actor.send({ type: 'CANCEL_SCAN' });
    expect(page.state().matches('ready')).toBe(true);
    expect(page.scans[0]!.stopped).toBe(true);
    expect(page.context().scanHint).toBeNull();
  });

  it('asks for the tag to be typed when it gives no UID', async () => {
    const page = await ready({ nfcAvailable: true });
    page.actor.send({ type: 'SCAN' });
    page.scans[0]!.send({ type: 'TAG_READ', serialNumber: '' });
    expect(page.state().matches('ready')).toBe(true);
    expect(page.context().error).toBe(TAG_WITHOUT_UID);
    expect(page.binds).toEqual([]);
  });

  it('shows why a scan could not start (permission refused), and a new scan clears it', async () => {
    const page = await ready({ nfcAvailable: true });
    page.actor.send({ type: 'SCAN' });
    const refused = scanFailureMessage(new DOMException('Permission denied', 'NotAllowedError'));
    page.scans[0]!.send({ type: 'SCAN_FAILED', message: refused });
    expect(page.state().matches('ready')).toBe(true);
    expect(page.context().error).toBe(refused);
    page.actor.send({ type: 'SCAN' });
    expect(page.context().error).toBeNull();
    expect(page.scans).toHaveLength(2);
  });

  it('binds a tag typed while listening, and stops the scan', async () => {
    const page = await ready({ nfcAvailable: true });
    page.actor.send({ type: 'SCAN' });
    page.actor.send({ type: 'SUBMIT', tag: { kind: 'claimCode', claimCode: 'PRV-7F3A' } });
    expect(page.scans[0]!.stopped).toBe(true);
    await page.settled();
    expect(page.binds).toEqual([{ token: TOKEN, choice: { claimCode: 'PRV-7F3A' } }]);
  });
});

describe('the messages', () => {
  it('names the cause of a scan that could not start', () => {
    const message = (name: string) => scanFailureMessage(new DOMException('x', name));
    expect(message('NotAllowedError')).toMatch(/^NFC permission was refused/);
    expect(message('NotSupportedError')).toMatch(/^This phone cannot scan NFC tags/);
    expect(message('NotReadableError')).toMatch(/^NFC is turned off or busy/);
    expect(message('AbortError')).toMatch(/^The scan could not start/);
    for (const name of ['NotAllowedError', 'NotSupportedError', 'NotReadableError', 'AbortError']) {
      expect(message(name)).toMatch(/type the tag's UID or claim code below\.$/i);
    }
  });

  it('reads the link\'s own refusals by their codes only', () => {
    expect(linkProblemOf(used())).toBe('used');
    expect(linkProblemOf(expired())).toBe('expired');
    expect(linkProblemOf(unknown())).toBe('wrong');
    // "Selected tag not found" is a 404 too, but about the tag: the link stays usable.
    expect(linkProblemOf(new ApiError('Selected tag not found', 404, 'NFC_TAG_NOT_FOUND'))).toBeNull();
    expect(linkProblemOf(new Error('x'))).toBeNull();
  });
});
