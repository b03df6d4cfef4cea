import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Banner } from '../../components/Banner';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { errorMessage } from '../../lib/api-client';
import { useAuth, useAuthActions } from '../../lib/auth/session';
import { resetPassword } from './account-links';
import { AuthLayout } from './AuthLayout';
import { PASSWORD_RESET_DONE } from './password-rules';
import { resetPasswordSchema, type ResetPasswordForm } from './schemas';
import { useFragmentToken } from './useFragmentToken';

/**
 * /reset-password#token=…, the page the mailed link opens: a new password, checked against the
 * server's rules as it is typed, and its confirmation. Every session of the account ends on the
 * server, so the user signs in again: on to /login, which says so.
 */
export function ResetPasswordPage() {
  const token = useFragmentToken();
  const navigate = useNavigate();
  const { status } = useAuth();
  const auth = useAuthActions();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, control } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const newPassword = useWatch({ control, name: 'newPassword' });

  if (!token) {
    return (
      <AuthLayout title="Reset your password">
        <Banner kind="error">This link has no reset token. Open the link from the email again, or ask for a new one.</Banner>
        <Link className="button button--primary button--block" to="/forgot-password">
          Ask for a new link
        </Link>
      </AuthLayout>
    );
  }

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await resetPassword(token, values.newPassword);
    } catch (error) {
      // 400: a used, expired or unknown link, or a password the server refuses, in its words.
      setFailure(errorMessage(error, 'Could not reset your password. Please try again.'));
      return;
    }
    // This device's session has ended on the server too.
    if (status === 'signedIn') await auth.signOut();
    navigate('/login', { replace: true, state: { notice: PASSWORD_RESET_DONE } });
  });

  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="Once it is changed, you are signed out everywhere and sign in again with the new one."
      footer={
        <p>
          Link not working? <Link to="/forgot-password">Ask for a new one</Link>
        </p>
      }
    >
      <form onSubmit={submit} noValidate aria-label="Reset password form">
        {failure && <Banner kind="error">{failure}</Banner>}
        <NewPasswordFields
          password={newPassword}
          registration={{ newPassword: register('newPassword'), confirmPassword: register('confirmPassword') }}
          errors={{ newPassword: formState.errors.newPassword?.message, confirmPassword: formState.errors.confirmPassword?.message }}
        />
        <button type="submit" className="button button--primary button--block" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Resetting…' : 'Reset password'}
        </button>
      </form>
    </AuthLayout>
  );
}
