import { Link, useNavigate } from 'react-router';
import { RegisterForm } from './AuthForms';
import { AuthLayout } from './AuthLayout';

/** /register: the rules checked in order, one message at a time; success goes to /dashboard. */
export function RegisterPage() {
  const navigate = useNavigate();

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Register to bid live on authenticated, NFC-tagged memorabilia."
      footer={
        <p>
          Already have an account? <Link to="/login">Sign in here</Link>
        </p>
      }
    >
      <RegisterForm label="Create account form" onSignedIn={() => navigate('/dashboard', { replace: true })} />
    </AuthLayout>
  );
}
