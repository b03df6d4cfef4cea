import { Link, useLocation, useNavigate } from 'react-router';
import { SignInForm } from './AuthForms';
import { AuthLayout } from './AuthLayout';

/** /login: back to where the guard sent the user from, else /dashboard. */
export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const from = (location.state as { from?: string } | null)?.from ?? '/dashboard';

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
      <SignInForm label="Sign in form" onSignedIn={() => navigate(from, { replace: true })} />
    </AuthLayout>
  );
}
