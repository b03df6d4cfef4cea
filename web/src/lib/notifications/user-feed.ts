import { fromCallback } from 'xstate';
import type { UserFeedCommand, UserFeedEvent } from './user-socket';

/**
 * The bell's socket as the notices machine invokes it: it lives as long as the machine state that
 * invokes it; each reconnect is a new invocation. The socket's code (and the contract it checks
 * every message against, zod with it) is fetched when someone signs in, not with every visitor's
 * first page.
 */
export const userFeed = fromCallback<UserFeedCommand>(({ sendBack, receive }) => {
  let stopped = false;
  let close = () => {};
  void import('./user-socket').then(
    ({ openUserSocket }) => {
      if (!stopped) close = openUserSocket(sendBack, receive);
    },
    // The code could not be fetched: as a socket that closed, tried again later.
    () => {
      if (!stopped) sendBack({ type: 'FEED.CLOSED', code: 1006 } satisfies UserFeedEvent);
    },
  );
  return () => {
    stopped = true;
    close();
  };
});
