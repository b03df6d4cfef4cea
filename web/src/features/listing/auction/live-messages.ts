/** The live feed's messages and events, apart from the socket so that machine tests need no DOM. */

export type { ServerMessage as LiveMessage } from '../../../../../api/contracts/live';
import { serverMessageSchema, type ServerMessage } from '../../../../../api/contracts/live';

/**
 * A message from the socket, checked against the API's contract: anything that does not parse (a
 * malformed frame, a message type this build does not know) is dropped, so it can never put the
 * panel in a wrong state. Development builds say what was dropped.
 */
export function parseLiveMessage(data: string): ServerMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    json = undefined;
  }
  const parsed = serverMessageSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  if (import.meta.env?.DEV) console.warn('Dropped a live message that does not match the contract', data, parsed.error.issues);
  return null;
}

/** What the feed tells the panel machine. */
export type FeedEvent =
  | { type: 'FEED.SUBSCRIBED' }
  | { type: 'FEED.MESSAGE'; message: ServerMessage }
  | { type: 'FEED.CLOSED'; code: number };

export interface FeedInput {
  readonly auctionId: string;
}

/** The normal close: the only one after which the panel does not reconnect. */
export const NORMAL_CLOSURE = 1000;
