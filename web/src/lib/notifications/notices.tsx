import { createActorContext } from '@xstate/react';
import { useEffect, useMemo, type ReactNode } from 'react';
import type { Notification } from '../../../../api/contracts/notifications';
import { useAccessToken } from '../auth/session';
import { noticesMachine } from './notices-machine';
import { userFeed } from './user-feed';

const Notices = createActorContext(noticesMachine.provide({ actors: { userFeed } }));

/** Inside the SessionProvider: the bell's socket opens while someone is signed in, and authenticates with each token the session gets. */
export function NoticesProvider({ children }: { children: ReactNode }) {
  return (
    <Notices.Provider>
      <FollowsTheToken />
      {children}
    </Notices.Provider>
  );
}

function FollowsTheToken() {
  const actor = Notices.useActorRef();
  const token = useAccessToken();
  useEffect(() => {
    actor.send({ type: 'TOKEN_CHANGED', token });
  }, [actor, token]);
  return null;
}

/** The signed-in user's unread notices; null when not known (signed out, or the server has not said yet). */
export function useUnreadCount(): number | null {
  return Notices.useSelector((snapshot) => snapshot.context.unreadCount);
}

export function useNoticeActions() {
  const actor = Notices.useActorRef();
  return useMemo(
    () => ({
      /** A page read the count over HTTP: the bell shows it at once. */
      unreadCountKnown(unreadCount: number) {
        actor.send({ type: 'UNREAD_COUNT_KNOWN', unreadCount });
      },
      /** Calls `listener` with each notice that arrives live; returns how to stop. */
      onNotice(listener: (notification: Notification) => void): () => void {
        const subscription = actor.on('notice', (event) => listener(event.notification));
        return () => subscription.unsubscribe();
      },
    }),
    [actor],
  );
}
