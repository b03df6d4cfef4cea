import { Link, useNavigate } from 'react-router';
import { useAuthActions } from '../../lib/auth/session';
import { SignInForm } from './AuthForms';
import { AuthLayout } from './AuthLayout';
import { LOGIN_FAILED } from './password-rules';

/** /admin/login: the server refuses a non-admin with its own words ("This account does not have admin access"), shown as they are. */
export function AdminLoginPage() {
  const navigate = useNavigate();
  const auth = useAuthActions();

  return (
    <AuthLayout
      title="Admin sign in"
      subtitle="For Provenance staff: listings, NFC tags, imports and analytics."
      footer={
        <p>
          Not staff? <Link to="/marketplace">Back to the marketplace</Link>
        </p>
      }
    >
      <SignInForm
        label="Admin sign in form"
        emailAutoComplete="username"
        signIn={(credentials) => auth.adminSignIn(credentials)}
        // 403 "This account does not have admin access", 401 "Invalid email or password", 429 "Too many…".
        failureMessage={(error) => (error && error !== 'Admin login failed' ? error : LOGIN_FAILED)}
        onSignedIn={() => navigate('/admin/dashboard', { replace: true })}
      />
    </AuthLayout>
  );
}
