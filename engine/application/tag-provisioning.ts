import { decideClaimCodeReservation, nfcClaimCodeStreamId } from '../domain/nfc-tag/claim-code';
import { normalizeClaimCode, requireNfcUid } from '../domain/nfc-tag/identifiers';
import { decideNfcTag, evolveNfcTag, initialNfcTagState, nfcTagStreamId, type NfcTagCommand, type NfcTagEvent } from '../domain/nfc-tag/nfc-tag';
import type { LogPosition } from '../eventstore/port';
import { appendDecision, loadStream, type CommandHandler, type StreamDecision } from './command-handler';

export type ProvisionNfcTag = Extract<NfcTagCommand, { type: 'ProvisionNfcTag' }>;

const tagFold = { initialState: initialNfcTagState, evolve: evolveNfcTag };

export interface ProvisionedTag {
  readonly events: readonly NfcTagEvent[];
  /** Where the provisioning landed in the log: wait for it before reading the read models. */
  readonly position: LogPosition;
}

/**
 * Provisions a tag under a claim code no other tag has: the tag's first event and the code's
 * reservation go in one atomic append with both expected revisions. The tag decider speaks first
 * (a bad UID or claim code, "already provisioned"), then the reservation ("claim code taken").
 */
export async function handleTagProvisioning(handler: CommandHandler, command: ProvisionNfcTag): Promise<ProvisionedTag> {
  const { store } = handler;
  const uid = requireNfcUid(command.data.uid);
  const tagStream = nfcTagStreamId(uid);
  // An invalid code locks nothing: the decider refuses it below.
  const claimCode = command.data.claimCode === null ? null : normalizeClaimCode(command.data.claimCode);
  const claimStream = claimCode === null ? null : nfcClaimCodeStreamId(claimCode);

  return handler.exclusive(claimStream === null ? [tagStream] : [tagStream, claimStream], async () => {
    const tag = await loadStream(store, tagFold, tagStream);
    const events = decideNfcTag(command, tag.state);
    let reservation: StreamDecision | null = null;
    if (claimCode !== null && claimStream !== null) {
      const holder = await store.readStream(claimStream, { maxCount: 1 });
      const reservedBy = holder.length > 0 ? String((holder[0]!.data as { uid: string }).uid) : null;
      reservation = { stream: { streamId: claimStream, expectedRevision: 'no_stream' }, events: decideClaimCodeReservation(claimCode, uid, reservedBy, command.metadata) };
    }
    // The tag's events are never empty (the decider provisions or refuses), so there is a first
    // result; it carries the append's end, where the read models hold the tag and its reservation.
    const appended = await appendDecision(store, command, [{ stream: tag, events }, reservation]);
    return { events, position: appended[0]!.position };
  });
}
