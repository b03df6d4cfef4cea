import { auctionDecider, fold, type AuctionCommand, type AuctionEvent, type AuctionState } from '../../../engine/domain';
import { liveAuction, placeBid, play } from '../fixtures';
import { spec } from '../given-when-then';

/** given(history).when(command).then… against the auction decider. */
export const auction = spec(auctionDecider);

/** The history after running the given commands against `history`. */
export const after = (history: AuctionEvent[], ...commands: AuctionCommand[]) => play(auctionDecider, history, ...commands);

export const stateOf = (history: AuctionEvent[]): AuctionState => fold(auctionDecider, history);

export function scheduledState(history: AuctionEvent[]) {
  const state = stateOf(history);
  if (state.status === 'UNSCHEDULED') throw new Error('expected a scheduled auction');
  return state;
}

/**
 * Three bidders with proxies, flat $1 increments from $50.00:
 *   alice $51 (max $90)  -> alice leads at $51
 *   bob   $52 (max $70)  -> alice's proxy answers: alice leads at $71
 *   carol $72 (max $80)  -> alice's proxy answers: alice leads at $81
 */
export const threeProxyBidders = (): AuctionEvent[] =>
  after(liveAuction(), placeBid('alice', 5_100, { maximum: 9_000 }), placeBid('bob', 5_200, { maximum: 7_000 }), placeBid('carol', 7_200, { maximum: 8_000 }));
