import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../components/Banner';
import { Spinner } from '../../components/Spinner';
import { useAuth, useAuthActions } from '../../lib/auth/session';
import { resendLinkMachine } from '../../lib/email-verification';
import { AuthLayout } from './AuthLayout';
import { useFragmentToken } from './useFragmentToken';
import { verifyEmailMachine } from './verify-email-machine';

/** /verify-email#token=…, the page the mailed link opens: the address is confirmed, or why not, with a way to a new link. */
export function VerifyEmailPage() {
  const token = useFragmentToken();
  const auth = useAuthActions();
  // A confirmed address (or a confirmed change of address) shows on the signed-in user's pages at once.
  const machine = useMemo(() => verifyEmailMachine.provide({ actions: { verified: () => void auth.refreshUser() } }), [auth]);
  const [snapshot, send] = useMachine(machine, { input: { token } });

  return (
    <AuthLayout title="Confirm your email">
      {snapshot.matches('verifying') || snapshot.matches('starting') ? (
        <Spinner label="Confirming your email address" />
      ) : snapshot.matches('verified') ? (
        <>
          <Banner kind="success">Your email address is confirmed.</Banner>
          <Link className="button button--primary button--block" to="/marketplace">
            Go to the marketplace
          </Link>
        </>
      ) : (
        <>
          <Banner kind="error">{snapshot.matches('noToken') ? 'This link has no confirmation token. Open the link from the email again, or ask for a new one.' : snapshot.context.error}</Banner>
          {snapshot.matches('failed') && snapshot.context.retryable && (
            <button type="button" className="button button--block verify-email__retry" onClick={() => send({ type: 'RETRY' })}>
              Try Again
            </button>
          )}
          <NewLink />
        </>
      )}
    </AuthLayout>
  );
}

/** Signed in: ask for a new link here. Signed out: sign in first, then come back here to ask. */
function NewLink() {
  const { status } = useAuth();
  const [snapshot, send] = useMachine(resendLinkMachine);
  if (status !== 'signedIn') {
    return (
      <p className="muted verify-email__hint">
        Need a new link?{' '}
        <Link to="/login" state={{ from: '/verify-email' }}>
          Sign in
        </Link>{' '}
        and ask for one here or on your dashboard.
      </p>
    );
  }
  return (
    <div className="verify-email__resend">
      {snapshot.context.message && <Banner kind={snapshot.matches('failed') ? 'error' : 'success'}>{snapshot.context.message}</Banner>}
      <button type="button" className="button button--primary button--block" onClick={() => send({ type: 'SEND' })} disabled={snapshot.matches('sending')}>
        {snapshot.matches('sending') ? 'Sending…' : 'Send a new link'}
      </button>
    </div>
  );
}
