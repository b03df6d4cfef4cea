import { useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { AUDIT_LOG_PATH } from '../../lib/audit-links';
import { useAuthActions } from '../../lib/auth/session';
import { SignInForm } from './AuthForms';
import { AuthLayout } from './AuthLayout';
import { LOGIN_FAILED } from './password-rules';

/** /admin/login, for admins and auditors: the server refuses anyone else with its own words ("This account does not have admin access"), shown as they are. */
export function AdminLoginPage() {
  const navigate = useNavigate();
  const auth = useAuthActions();
  // An admin lands on the dashboard; an auditor on the audit log, their part of the admin area.
  const landing = useRef('/admin/dashboard');

  return (
    <AuthLayout
      title="Admin sign in"
      subtitle="For Provenance staff: listings, NFC tags, imports, analytics and the audit log."
      footer={
        <p>
          Not staff? <Link to="/marketplace">Back to the marketplace</Link>
        </p>
      }
    >
      <SignInForm
        label="Admin sign in form"
        emailAutoComplete="username"
        signIn={async (credentials) => {
          const answer = await auth.adminSignIn(credentials);
          landing.current = answer.user?.roles.includes('ADMIN') ? '/admin/dashboard' : AUDIT_LOG_PATH;
          return answer;
        }}
        // 403 "This account does not have admin access", 401 "Invalid email or password", 429 "Too many…".
        failureMessage={(error) => (error && error !== 'Admin login failed' ? error : LOGIN_FAILED)}
        onSignedIn={() => navigate(landing.current, { replace: true })}
      />
    </AuthLayout>
  );
}
