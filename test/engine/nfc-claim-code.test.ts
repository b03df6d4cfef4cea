import { describe, expect, test } from 'vitest';
import { CommandHandler } from '../../engine/application/command-handler';
import { handleTagProvisioning, type ProvisionNfcTag } from '../../engine/application/tag-provisioning';
import { nfcTagStreamId } from '../../engine/domain';
import { decideClaimCodeReservation, nfcClaimCodeStreamId } from '../../engine/domain/nfc-tag/claim-code';
import { InMemoryEventStore } from '../../engine/eventstore/memory';
import { admin, DURING, eventMetadata, metadata, OTHER_TAG_UID, TAG_UID } from './fixtures';
import { refusal } from './given-when-then';

const CODE = 'PRV-ABCD-2345';

describe('claim code reservation', () => {
  test('given a free code, when a tag reserves it, then NfcClaimCodeReserved names the tag', () => {
    expect(decideClaimCodeReservation(CODE, TAG_UID, null, metadata(admin, DURING, 'cmd-provision'))).toEqual([
      { type: 'NfcClaimCodeReserved', data: { claimCode: CODE, uid: TAG_UID }, metadata: eventMetadata(admin, DURING, 'cmd-provision') },
    ]);
  });

  test('given a code held by the same tag, when it reserves it again, then nothing happens', () => {
    expect(decideClaimCodeReservation(CODE, TAG_UID, TAG_UID, metadata(admin, DURING))).toEqual([]);
  });

  test('given a code held by another tag, when a tag reserves it, then CLAIM_CODE_TAKEN', () => {
    const error = refusal(() => decideClaimCodeReservation(CODE, OTHER_TAG_UID, TAG_UID, metadata(admin, DURING)));
    expect(error).toMatchObject({ code: 'CLAIM_CODE_TAKEN', kind: 'rejected', message: `Claim code ${CODE} is already used by another NFC tag` });
  });
});

describe('handleTagProvisioning', () => {
  const provision = (uid: string, claimCode: string | null, commandId: string): ProvisionNfcTag => ({
    type: 'ProvisionNfcTag',
    data: { uid, claimCode },
    metadata: metadata(admin, DURING, commandId),
  });

  test('provisions the tag and reserves its upper-cased claim code in one append', async () => {
    const store = new InMemoryEventStore();
    const handled = await handleTagProvisioning(new CommandHandler(store), provision(TAG_UID.toLowerCase(), CODE.toLowerCase(), 'cmd-1'));

    expect(handled.events).toEqual([{ type: 'NfcTagProvisioned', data: { uid: TAG_UID, claimCode: CODE }, metadata: eventMetadata(admin, DURING, 'cmd-1') }]);
    const [tagEvent] = await store.readStream(nfcTagStreamId(TAG_UID));
    const [reserved] = await store.readStream(nfcClaimCodeStreamId(CODE));
    expect(reserved).toMatchObject({ type: 'NfcClaimCodeReserved', data: { claimCode: CODE, uid: TAG_UID } });
    // One transaction: both events share the commit.
    expect(reserved!.position.commit).toBe(tagEvent!.position.commit);
    // The append's end: once the read models reach it, they hold the tag and its reservation.
    expect(handled.position).toEqual(reserved!.position);
  });

  test('a tag without a claim code reserves nothing', async () => {
    const store = new InMemoryEventStore();
    await handleTagProvisioning(new CommandHandler(store), provision(TAG_UID, null, 'cmd-1'));
    expect((await store.readAll()).map((event) => event.type)).toEqual(['NfcTagProvisioned']);
  });

  test('of two tags provisioned with one claim code, even through two handlers at once, exactly one is provisioned', async () => {
    const store = new InMemoryEventStore();
    // Two handlers: two API processes, whose only meeting point is the store's expected revisions.
    const outcomes = await Promise.allSettled([
      handleTagProvisioning(new CommandHandler(store), provision(TAG_UID, CODE, 'cmd-1')),
      handleTagProvisioning(new CommandHandler(store), provision(OTHER_TAG_UID, CODE, 'cmd-2')),
    ]);

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const [refused] = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'CLAIM_CODE_TAKEN' });
    const provisioned = (await store.readAll()).filter((event) => event.type === 'NfcTagProvisioned');
    expect(provisioned).toHaveLength(1);
    const [reserved] = await store.readStream(nfcClaimCodeStreamId(CODE));
    expect(reserved!.data).toEqual({ claimCode: CODE, uid: (provisioned[0]!.data as { uid: string }).uid });
  });

  test('the tag decider speaks first: a tag provisioned already is refused as such, whatever its code', async () => {
    const store = new InMemoryEventStore();
    const handler = new CommandHandler(store);
    await handleTagProvisioning(handler, provision(TAG_UID, CODE, 'cmd-1'));
    await expect(handleTagProvisioning(handler, provision(TAG_UID, CODE, 'cmd-2'))).rejects.toMatchObject({ code: 'NFC_TAG_ALREADY_PROVISIONED' });
    await expect(handleTagProvisioning(handler, provision(OTHER_TAG_UID, 'not a code!', 'cmd-3'))).rejects.toMatchObject({
      code: 'INVALID_CLAIM_CODE',
      message: 'Please enter a valid claim code',
    });
    expect(await store.readStream(nfcTagStreamId(OTHER_TAG_UID))).toEqual([]);
  });
});
