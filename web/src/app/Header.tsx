import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AUDIT_LOG_PATH } from '../lib/audit-links';
import { useAuth, useAuthActions } from '../lib/auth/session';
import { authModal } from '../lib/auth-modal';
import { setTheme, useTheme } from '../lib/theme';

/** The public header: logo, Admin badge (admins; the audit log's for auditors), theme toggle, heart to the followed items, sign-in or the user's menu. */
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
        {name} ▾
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
