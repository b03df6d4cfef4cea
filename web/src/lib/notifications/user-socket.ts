import type { ClientMessage } from '../../../../api/contracts/live';
import type { Notification } from '../../../../api/contracts/notifications';
import { liveUrl, NORMAL_CLOSURE, parseLiveMessage } from '../live-socket';

/** What the app-wide socket tells the notices machine: the signed-in user's own news only (auction news is the auction panel's). */
export type UserFeedEvent =
  | { type: 'FEED.OPEN' }
  | { type: 'FEED.CLOSED'; code: number }
  | { type: 'AUTHENTICATED'; unreadCount: number }
  | { type: 'UNAUTHENTICATED'; reason: string }
  | { type: 'NOTICE'; notification: Notification; unreadCount: number }
  | { type: 'UNREAD_COUNT'; unreadCount: number };

/** What the machine asks the socket to send. */
export interface UserFeedCommand {
  readonly type: 'SEND';
  readonly message: ClientMessage;
}

/** A frame from the socket as the machine's event: checked against the contract first; anything else (malformed, not the user's) is dropped. */
export function userFeedEvent(data: string): UserFeedEvent | null {
  const message = parseLiveMessage(data);
  switch (message?.type) {
    case 'authenticated':
      return { type: 'AUTHENTICATED', unreadCount: message.unreadCount };
    case 'unauthenticated':
      return { type: 'UNAUTHENTICATED', reason: message.reason };
    case 'notification':
      return { type: 'NOTICE', notification: message.notification, unreadCount: message.unreadCount };
    case 'unread_count':
      return { type: 'UNREAD_COUNT', unreadCount: message.unreadCount };
    default:
      return null;
  }
}


/**
 * Opens the app's one authenticated socket on /ws/bidding, for the signed-in user's notices. The
 * token goes in a message once the socket is open, never in the URL. Returns how to close it.
 */
export function openUserSocket(sendBack: (event: UserFeedEvent) => void, receive: (listener: (command: UserFeedCommand) => void) => void): () => void {
  const socket = new WebSocket(liveUrl());
  let stopped = false;
  socket.onopen = () => sendBack({ type: 'FEED.OPEN' });
  socket.onmessage = (event) => {
    const feedEvent = userFeedEvent(String(event.data));
    if (feedEvent) sendBack(feedEvent);
  };
  socket.onclose = (event) => {
    if (!stopped) sendBack({ type: 'FEED.CLOSED', code: event.code });
  };
  receive((command) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command.message));
  });
  return () => {
    stopped = true;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    if (socket.readyState === WebSocket.OPEN) socket.close(NORMAL_CLOSURE, 'Signed out');
    // Closing a connecting socket logs a browser warning; close it as soon as it opens instead.
    else if (socket.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close(NORMAL_CLOSURE, 'Signed out');
  };
}
