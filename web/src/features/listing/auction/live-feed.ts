import { fromCallback } from 'xstate';
import { liveUrl, NORMAL_CLOSURE, parseLiveMessage } from '../../../lib/live-socket';
import type { FeedEvent, FeedInput } from './live-messages';

/**
 * One WebSocket on /ws/bidding, subscribed to one auction. It lives as long as the machine state
 * that invokes it; each reconnect is a new invocation, so a socket never outlives its state.
 */
export const liveFeed = fromCallback<{ type: 'NONE' }, FeedInput>(({ sendBack, input }) => {
  const socket = new WebSocket(liveUrl());
  let stopped = false;
  socket.onopen = () => socket.send(JSON.stringify({ action: 'subscribe', auctionId: input.auctionId }));
  socket.onmessage = (event) => {
    const message = parseLiveMessage(String(event.data));
    if (message === null) return;
    if (message.type === 'subscribed') {
      if (message.auctionId === input.auctionId) sendBack({ type: 'FEED.SUBSCRIBED' } satisfies FeedEvent);
      return;
    }
    // Messages about other auctions (none expected) are not this panel's.
    if ('auctionId' in message && message.auctionId !== input.auctionId) return;
    sendBack({ type: 'FEED.MESSAGE', message } satisfies FeedEvent);
  };
  socket.onclose = (event) => {
    if (!stopped) sendBack({ type: 'FEED.CLOSED', code: event.code } satisfies FeedEvent);
  };
  return () => {
    stopped = true;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    if (socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ action: 'unsubscribe', auctionId: input.auctionId }));
      socket.close(NORMAL_CLOSURE, 'Panel closed');
    } else if (socket.readyState === WebSocket.CONNECTING) {
      // Closing a connecting socket logs a browser warning; close it as soon as it opens instead.
      socket.onopen = () => socket.close(NORMAL_CLOSURE, 'Panel closed');
    }
  };
});
