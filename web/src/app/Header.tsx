import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AUDIT_LOG_PATH } from '../lib/audit-links';
import { useAuth, useAuthActions } from '../lib/auth/session';
import { authModal } from '../lib/auth-modal';
import { useUnreadCount } from '../lib/notifications/notices';
import { setTheme, useTheme } from '../lib/theme';

/** The public header: logo, Admin badge (admins; the audit log's for auditors), theme toggle, heart to the followed items, the bell (signed in), sign-in or the user's menu. */
export function Header() {
  const { status, user, isAdmin, isAuditor } = useAuth();
  const theme = useTheme();
  return (
    <header className="header">
      <div className="header__inner">
        <Link to="/marketplace" className="header__logo" aria-label="Provenance marketplace">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Provenance</span>
        </Link>
        <nav className="header__actions" aria-label="Account">
          {isAdmin ? (
            <Link to="/admin/dashboard" className="badge badge--admin">
              Admin
            </Link>
          ) : (
            isAuditor && (
              <Link to={AUDIT_LOG_PATH} className="badge badge--admin">
                Audit log
              </Link>
            )
          )}
          <button
            type="button"
            className="icon-button"
            onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
            aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
            data-testid="theme-toggle"
          >
            {theme === 'dark' ? '☀' : '☾'}
          </button>
          <Link to="/following-login" className="icon-button" aria-label="Followed items">
            ♡
          </Link>
          {status === 'signedIn' && user && <NotificationsLink />}
          {status === 'signedIn' && user ? (
            <UserMenu name={user.firstName || user.email} auditorOnly={isAuditor && !isAdmin} />
          ) : (
            <button type="button" className="button button--primary" onClick={() => authModal.open('login')} disabled={status === 'restoring'}>
              Sign in
            </button>
          )}
        </nav>
      </div>
    </header>
  );
}

/** The bell: the link to /notifications, named with the unread count, which the socket keeps current; a change is announced politely. */
function NotificationsLink() {
  const unread = useUnreadCount();
  // The count is in the name only when there is one: "Notifications" alone means nothing waits.
  const name = unread !== null && unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <>
      <Link to="/notifications" className="icon-button header__bell" aria-label={name} data-testid="notifications-bell">
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <path d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15L6 16Z" />
          <path d="M10 20.5a2 2 0 0 0 4 0" />
        </svg>
        {unread !== null && unread > 0 && (
          <span className="header__bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </Link>
      <span className="visually-hidden" role="status">
        {unread === null ? '' : unread === 0 ? 'No unread notifications' : unread === 1 ? '1 unread notification' : `${unread} unread notifications`}
      </span>
    </>
  );
}

/** The signed-in user's menu; an auditor who is not an admin is offered what they may use: the audit log and Logout. */
function UserMenu({ name, auditorOnly }: { name: string; auditorOnly: boolean }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const auth = useAuthActions();
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !menu.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  return (
    <div className="menu" ref={menu}>
      <button type="button" className="button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="menu__name">{name}</span> ▾
      </button>
      {open && (
        <div className="menu__items" role="menu">
          {auditorOnly ? (
            <Link role="menuitem" to={AUDIT_LOG_PATH} onClick={() => setOpen(false)}>
              Audit log
            </Link>
          ) : (
            <>
              <Link role="menuitem" to="/profile" onClick={() => setOpen(false)}>
                Your Profile
              </Link>
              <Link role="menuitem" to="/dashboard" onClick={() => setOpen(false)}>
                Dashboard
              </Link>
              <Link role="menuitem" to="/favourites" onClick={() => setOpen(false)}>
                Favourites
              </Link>
            </>
          )}
          <button
            role="menuitem"
            type="button"
            onClick={async () => {
              setOpen(false);
              await auth.signOut();
              navigate('/marketplace');
            }}
          >
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
