import { auctionDecider, fold, type AuctionCommand, type AuctionEvent, type AuctionState } from '../../../engine/domain';
import { play } from '../fixtures';
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
