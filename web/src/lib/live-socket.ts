/** What every socket on /ws/bidding shares: its address, the check of what it says, the close that means "done". */

import { serverMessageSchema, type ServerMessage } from '../../../api/contracts/live';

export type { ServerMessage as LiveMessage };

export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/bidding`;
}

/**
 * A message from the socket, checked against the API's contract: anything that does not parse (a
 * malformed frame, a message type this build does not know) is dropped, so it can never put a
 * machine in a wrong state. Development builds say what was dropped.
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

/** The normal close: the only one after which a feed does not reconnect. */
export const NORMAL_CLOSURE = 1000;
