import { Link, useLocation, useNavigate } from 'react-router';
import { Banner } from '../../components/Banner';
import { SignInForm } from './AuthForms';
import { AuthLayout } from './AuthLayout';

/** What may lead here: where the guard sent the user from, and what happened before (a password reset). */
interface LoginState {
  readonly from?: string;
  readonly notice?: string;
}

/** /login: back to where the guard sent the user from, else /dashboard. */
export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as LoginState | null;
  const from = state?.from ?? '/dashboard';

  return (
    <AuthLayout
      title="Sign in"
      subtitle="Welcome back. Sign in to bid on authenticated memorabilia."
      footer={
        <p>
          New to Provenance?{' '}
          <Link to="/register" state={location.state}>
            Create an account
          </Link>
        </p>
      }
    >
      {state?.notice && <Banner kind="success">{state.notice}</Banner>}
      <SignInForm label="Sign in form" onSignedIn={() => navigate(from, { replace: true })} />
    </AuthLayout>
  );
}
