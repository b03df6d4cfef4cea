import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo } from 'react';
import { Link } from 'react-router';
import { fromPromise } from 'xstate';
import type { MarkReadRequest, Notification } from '../../../../api/contracts/notifications';
import { Banner } from '../../components/Banner';
import { FailedWithRetry } from '../../components/FailedWithRetry';
import { Spinner } from '../../components/Spinner';
import { unlessAborted } from '../../lib/api-client';
import { useNoticeActions, useUnreadCount } from '../../lib/notifications/notices';
import { fetchNotices, markNoticesRead } from './api';
import { inAppLink, NOTICE_KIND_LABELS } from './notice-list';
import { notificationsMachine } from './notifications-machine';
import './notifications.css';

const receivedAt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * /notifications: the signed-in user's notices, newest first, twenty at a time; new ones arrive live
 * on top. Opening a notice's lot marks it read; so do its own button and Mark all as read.
 */
export function NotificationsPage() {
  const notices = useNoticeActions();
  // Every count the server answers goes to the bell, even after the page is left (a notice's link was just followed).
  const machine = useMemo(
    () =>
      notificationsMachine.provide({
        actors: {
          loadPage: fromPromise(({ input, signal }: { input: { page: number }; signal: AbortSignal }) =>
            unlessAborted(signal, async (aborted) => {
              const page = await fetchNotices(input.page, aborted);
              notices.unreadCountKnown(page.unreadCount);
              return page;
            }),
          ),
          markRead: fromPromise(async ({ input }: { input: MarkReadRequest }) => {
            const answer = await markNoticesRead(input);
            notices.unreadCountKnown(answer.unreadCount);
            return answer;
          }),
        },
      }),
    [notices],
  );
  const [snapshot, send] = useMachine(machine);
  const unread = useUnreadCount();
  useEffect(() => notices.onNotice((notification) => send({ type: 'LIVE_NOTICE', notification })), [notices, send]);
  const { notices: list, last, error } = snapshot.context;

  const body = () => {
    if (snapshot.matches('loading')) return <Spinner label="Loading your notifications" />;
    if (snapshot.matches('failed')) return <FailedWithRetry message={error} onRetry={() => send({ type: 'RETRY' })} />;
    if (list.length === 0) {
      return (
        <div className="empty-state">
          <h2>No notifications yet</h2>
          <p className="muted">You hear here when you are outbid, when a lot you follow or bid on is about to end, when an auction you bid on closes, and when your password or email changes.</p>
          <Link className="button" to="/marketplace">
            Browse the marketplace
          </Link>
        </div>
      );
    }
    const loadingMore = snapshot.matches({ ready: { more: 'loading' } });
    return (
      <>
        <ol className="notices" aria-label="Notifications">
          {list.map((notice) => (
            <NoticeItem key={notice.id} notice={notice} onRead={() => send({ type: 'MARK_READ', id: notice.id })} />
          ))}
        </ol>
        {!last && (
          <div className="notices__more">
            <button type="button" className="button" onClick={() => send({ type: 'LOAD_MORE' })} disabled={loadingMore} aria-busy={loadingMore}>
              {loadingMore ? 'Loading…' : 'Load more'}
            </button>
          </div>
        )}
      </>
    );
  };

  return (
    <div className="account-page notifications-page">
      <header className="account-page__head notifications-page__head">
        <div>
          <h1>Notifications</h1>
          {/* Said politely as it changes by the bell's own status in the header, not twice. */}
          <p className="muted notifications-page__count">
            {unread === null ? '' : unread === 0 ? 'All read' : `${unread} unread`}
          </p>
        </div>
        <button
          type="button"
          className="button"
          onClick={() => send({ type: 'MARK_ALL_READ' })}
          disabled={!snapshot.matches('ready') || (unread === 0 && list.every((notice) => notice.readAt !== null))}
        >
          Mark all as read
        </button>
      </header>
      {error && snapshot.matches('ready') && (
        <Banner kind="error" onDismiss={() => send({ type: 'DISMISS' })}>
          {error}
        </Banner>
      )}
      {body()}
    </div>
  );
}

/** One notice: its kind and time, title (the link to its lot, when it has one), text; unread ones say so in words, not by colour alone. */
function NoticeItem({ notice, onRead }: { notice: Notification; onRead: () => void }) {
  const titleId = useId();
  const link = inAppLink(notice.link);
  const unread = notice.readAt === null;
  return (
    <li className={unread ? 'notice notice--unread' : 'notice'} data-testid="notice">
      <div className="notice__meta">
        <span className="badge notice__kind">{NOTICE_KIND_LABELS[notice.kind]}</span>
        {unread && <span className="badge notice__unread">Unread</span>}
        <time className="muted" dateTime={notice.createdAt}>
          {receivedAt.format(new Date(notice.createdAt))}
        </time>
      </div>
      <h2 className="notice__title" id={titleId}>
        {link ? (
          <Link to={link} onClick={onRead}>
            {notice.title}
          </Link>
        ) : (
          notice.title
        )}
      </h2>
      <p className="notice__body">{notice.body}</p>
      {unread && (
        <button type="button" className="button notice__read" onClick={onRead} aria-label={`Mark as read: ${notice.title}`}>
          Mark as read
        </button>
      )}
    </li>
  );
}
