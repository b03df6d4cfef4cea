import { asEngineEvent } from '../../engine/application/messages';
import {
  auctionRejectionsStreamId,
  auctionStreamId,
  auctionTimeline,
  incrementBands,
  isProductEvent,
  type AuctionEvent,
  type AuctionLogEntry,
  type AuctionSummary,
  type BidRejected,
  type TimelineAsOf,
} from '../../engine/domain';
import { comparePositions, positionToString, type EventStore, type LogPosition, type RecordedEvent } from '../../engine/eventstore/port';
import { verifyChain, type ChainVerdict } from '../../engine/integrity/verify-chain';
import type { AuctionTimeline, StreamVerification, TimelineSummary } from '../contracts/audit';
import { toDollars, toDollarsOrNull } from '../http/money';

/**
 * An auction replayed for admins and auditors: its stream and its rejections stream read back,
 * merged in log order, and handed to the engine, which decides every figure and every word.
 */
export async function readAuctionTimeline(store: EventStore, auctionId: string, asOf: number | string | undefined): Promise<AuctionTimeline> {
  const streamIds = [auctionStreamId(auctionId), auctionRejectionsStreamId(auctionId)];
  const [recordedEvents, recordedRejections] = (await Promise.all(streamIds.map((streamId) => store.readStream(streamId)))) as [RecordedEvent[], RecordedEvent[]];
  // Every event is checked, whatever the timeline shows of it; each step carries its event's mark.
  const verdicts = [verifyChain(streamIds[0]!, recordedEvents), verifyChain(streamIds[1]!, recordedRejections)];
  const links = new Map(
    [recordedEvents, recordedRejections].flatMap((recorded, stream) =>
      recorded.map((event, index) => [positionToString(event.position), { hash: event.hash, integrity: verdicts[stream]!.marks[index]! }] as const),
    ),
  );
  const [events, rejections] = [recordedEvents.filter(isProductEvent), recordedRejections.filter(isProductEvent)];
  const entries = [...events.map(eventEntry), ...rejections.map(refusalEntry)].sort((a, b) => comparePositions(a.position, b.position));
  // Maxima were private while the auction ran; once it is over they explain why each bid lost.
  const revealMaxima = events.some((event) => event.type === 'AuctionClosed' || event.type === 'AuctionCancelled');
  const timeline = auctionTimeline(entries, { revealMaxima, ...(asOf === undefined ? {} : { asOf: asOfOf(asOf) }) });
  const { rules } = timeline;
  return {
    auctionId: timeline.auctionId,
    listingId: timeline.listingId,
    rules: {
      currency: rules.currency,
      startingPrice: toDollars(rules.startingPrice),
      incrementTable: incrementBands(rules.incrementTable).map(({ from, to, increment }) => ({
        from: toDollars(from),
        to: toDollarsOrNull(to),
        increment: toDollars(increment),
      })),
      softClose: rules.softClose,
      reservePrice: toDollarsOrNull(rules.reservePrice),
      buyNowPrice: toDollarsOrNull(rules.buyNowPrice),
      startsAt: timeline.startsAt,
      scheduledEndsAt: timeline.scheduledEndsAt,
    },
    maximaRevealed: revealMaxima,
    steps: timeline.steps.map((step, index) => ({
      step: index,
      kind: step.kind,
      type: step.type,
      position: positionToString(step.position),
      revision: step.revision,
      at: step.at,
      actorId: step.actorId,
      correlationId: step.correlationId,
      tried: step.tried && { ...step.tried, amount: toDollarsOrNull(step.tried.amount), maximum: toDollarsOrNull(step.tried.maximum) },
      outcome: step.outcome,
      explanation: [...step.explanation],
      summary: presentSummary(step.summary),
      ...links.get(positionToString(step.position))!,
    })),
    summary: presentSummary(timeline.summary),
    asOf: asOf ?? null,
    integrity: verdicts.map(presentVerdict),
  };
}

/** A stream's verdict as the contract has it (its marks go with the steps). */
export function presentVerdict({ streamId, valid, events, firstInvalidRevision, problem }: ChainVerdict): StreamVerification {
  return { streamId, valid, events, firstInvalidRevision, problem };
}

function eventEntry(recorded: RecordedEvent): AuctionLogEntry<LogPosition> {
  return { kind: 'EVENT', position: recorded.position, revision: recorded.revision, event: asEngineEvent(recorded) as AuctionEvent };
}

function refusalEntry(recorded: RecordedEvent): AuctionLogEntry<LogPosition> {
  return { kind: 'REFUSED', position: recorded.position, rejection: asEngineEvent(recorded) as BidRejected };
}

function asOfOf(asOf: number | string): TimelineAsOf {
  return typeof asOf === 'number' ? { revision: asOf } : { time: new Date(asOf).toISOString() };
}

function presentSummary(summary: AuctionSummary): TimelineSummary {
  return {
    status: summary.status,
    price: toDollars(summary.price),
    leaderId: summary.leaderId,
    minimumNextBid: toDollars(summary.minimumNextBid),
    endsAt: summary.endsAt,
    reserveMet: summary.reserveMet,
    buyNowAvailable: summary.buyNowAvailable,
    bidCount: summary.bidCount,
  };
}
