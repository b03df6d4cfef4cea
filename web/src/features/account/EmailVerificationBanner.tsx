import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { Banner } from '../../components/Banner';
import { useAuth, useAuthActions } from '../../lib/auth/session';
import { resendLinkMachine } from '../../lib/email-verification';

/**
 * While the signed-in user's address is not confirmed: a reminder, and "Resend the link" with the
 * server's answer. The profile is read fresh first: a session kept on this device may predate the
 * link being followed elsewhere.
 */
export function EmailVerificationBanner() {
  const { user } = useAuth();
  const auth = useAuthActions();
  const [snapshot, send] = useMachine(resendLinkMachine);
  useEffect(() => {
    void auth.refreshUser();
  }, [auth]);
  // Strictly false: a profile stored before the server said anything about it is not nagged about.
  if (user?.emailVerified !== false) return null;
  const sending = snapshot.matches('sending');
  return (
    <div className="verify-banner">
      <Banner kind="info">
        <span className="verify-banner__text">
          Please confirm your email address: follow the link we sent to <strong>{user.email}</strong>.
        </span>
        <button type="button" className="button" onClick={() => send({ type: 'SEND' })} disabled={sending}>
          {sending ? 'Sending…' : 'Resend the link'}
        </button>
      </Banner>
      {snapshot.context.message && <Banner kind={snapshot.matches('failed') ? 'error' : 'success'}>{snapshot.context.message}</Banner>}
    </div>
  );
}
