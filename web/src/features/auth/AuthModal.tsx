import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Banner } from '../../components/Banner';
import { authModal, useAuthModal, type AuthModalMode } from '../../lib/auth-modal';
import { RegisterForm, SignInForm } from './AuthForms';
import { APPLE_UNAVAILABLE, googleSignInAvailability } from './social';
import './auth.css';

const TITLES: Record<AuthModalMode, string> = { login: 'Sign in', register: 'Create account' };

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The one auth modal, opened from the header or by a bid while signed out: login and register
 * modes, social buttons that tell the truth, focus kept inside while open, Escape closes, focus
 * goes back to whatever opened it.
 */
export function AuthModal() {
  const { open, mode, afterSignIn } = useAuthModal();
  if (!open) return null;
  return <OpenAuthModal mode={mode} afterSignIn={afterSignIn} />;
}

function OpenAuthModal({ mode, afterSignIn }: { mode: AuthModalMode; afterSignIn: (() => void) | null }) {
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const [notice, setNotice] = useState<string | null>(null);
  // A notice belongs to the mode it was shown in: switching modes drops it (adjusted while rendering, not after).
  const [noticeMode, setNoticeMode] = useState(mode);
  if (noticeMode !== mode) {
    setNoticeMode(mode);
    setNotice(null);
  }

  // Remember the opener once, give it its focus back when the modal goes away.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = dialog.current?.querySelector<HTMLElement>('input');
    first?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // A mode switch keeps the modal open: move focus to the new form's first field.
  useEffect(() => {
    dialog.current?.querySelector<HTMLElement>('input')?.focus();
  }, [mode]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      authModal.close();
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.offsetParent !== null);
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialog.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialog.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  const signedIn = () => {
    authModal.close();
    afterSignIn?.();
  };

  return (
    <div
      className="modal-overlay"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) authModal.close();
      }}
    >
      <div ref={dialog} className="modal auth-modal" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <div className="auth-modal__head">
          <h2 id={titleId}>{TITLES[mode]}</h2>
          <button type="button" className="icon-button auth-modal__close" aria-label="Close" onClick={() => authModal.close()}>
            ×
          </button>
        </div>
        {notice && (
          <Banner kind="info" onDismiss={() => setNotice(null)}>
            {notice}
          </Banner>
        )}
        <div className="auth-modal__social">
          <button type="button" className="button button--block" onClick={async () => setNotice(await googleSignInAvailability())}>
            <span aria-hidden="true" className="auth-modal__logo">G</span> Continue with Google
          </button>
          <button type="button" className="button button--block" onClick={() => setNotice(APPLE_UNAVAILABLE)}>
            <span aria-hidden="true" className="auth-modal__logo auth-modal__logo--apple">A</span> Continue with Apple
          </button>
        </div>
        <p className="auth-modal__divider">
          <span>or continue with email</span>
        </p>
        {mode === 'login' ? (
          <SignInForm label="Sign in form" onSignedIn={signedIn} onForgotPassword={() => authModal.close()} />
        ) : (
          <RegisterForm label="Create account form" onSignedIn={signedIn} rulesBeforeTyping={false} />
        )}
        <p className="auth-modal__switch muted">
          {mode === 'login' ? 'New to Provenance?' : 'Already have an account?'}{' '}
          {/* Named after the other mode, so that each mode has exactly one button with its own name as submit. */}
          <button type="button" className="auth-modal__link" onClick={() => authModal.setMode(mode === 'login' ? 'register' : 'login')}>
            {mode === 'login' ? 'Create account' : 'Sign in'}
          </button>
        </p>
      </div>
    </div>
  );
}
