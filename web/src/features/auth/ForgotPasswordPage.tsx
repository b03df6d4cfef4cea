import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Banner } from '../../components/Banner';
import { FormField } from '../../components/FormField';
import { errorMessage } from '../../lib/api-client';
import { requestPasswordReset } from './account-links';
import { AuthLayout } from './AuthLayout';
import { forgotPasswordSchema, type ForgotPasswordForm } from './schemas';

/** /forgot-password: mails a link to reset the password. The server answers the same whether or not the address has an account, and its words are shown. */
export function ForgotPasswordPage() {
  const [answer, setAnswer] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, formState } = useForm<ForgotPasswordForm>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const submit = handleSubmit(async ({ email }) => {
    setAnswer(null);
    try {
      const { message } = await requestPasswordReset(email.trim());
      setAnswer({ kind: 'success', text: message });
    } catch (error) {
      // 429 (asked too often) says when to try again, in the server's words.
      setAnswer({ kind: 'error', text: errorMessage(error, 'Could not send the link. Please try again.') });
    }
  });
  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter the email you sign in with and we will send you a link to choose a new password."
      footer={
        <p>
          Remembered it? <Link to="/login">Back to sign in</Link>
        </p>
      }
    >
      <form onSubmit={submit} noValidate aria-label="Forgot password form">
        {answer && <Banner kind={answer.kind}>{answer.text}</Banner>}
        <FormField label="Email" type="email" autoComplete="email" registration={register('email')} error={formState.errors.email?.message} />
        <button type="submit" className="button button--primary button--block" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Sending…' : 'Send reset link'}
        </button>
      </form>
    </AuthLayout>
  );
}
