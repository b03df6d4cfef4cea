import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { Banner } from '../../components/Banner';
import { FormField } from '../../components/FormField';
import { PasswordRulesList } from '../../components/PasswordRulesList';
import { useAuthActions } from '../../lib/auth/session';
import type { Credentials } from '../../lib/auth/auth-machine';
import { LOGIN_FAILED, registrationFailureMessage } from './password-rules';
import { loginSchema, registerSchema, type LoginForm, type RegisterForm } from './schemas';

/**
 * The sign-in and registration forms, one of each for the pages and the modal alike: the same
 * fields, labels, rules and messages wherever a user meets them.
 */

interface SignInFormProps {
  /** The session's signIn by default; its adminSignIn for the admin area. */
  readonly signIn?: (credentials: Credentials) => Promise<{ user: unknown; error: string | null }>;
  /** The words a refusal shows: by default "Invalid email or password" for any failure. */
  readonly failureMessage?: (error: string | null) => string;
  readonly onSignedIn: () => void;
  readonly label: string;
  readonly emailAutoComplete?: 'email' | 'username';
  /** Called as "Forgot password?" leads away (the modal closes). */
  readonly onForgotPassword?: () => void;
}

export function SignInForm({ signIn, failureMessage = () => LOGIN_FAILED, onSignedIn, label, emailAutoComplete = 'email', onForgotPassword }: SignInFormProps) {
  const auth = useAuthActions();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<LoginForm>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });
  const submit = handleSubmit(async ({ email, password }) => {
    setFailure(null);
    const { user, error } = await (signIn ?? auth.signIn)({ email: email.trim(), password });
    if (user) onSignedIn();
    else setFailure(failureMessage(error));
  });
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      {failure && <Banner kind="error">{failure}</Banner>}
      <FormField label="Email" type="email" autoComplete={emailAutoComplete} registration={register('email')} error={formState.errors.email?.message} />
      <FormField label="Password" type="password" autoComplete="current-password" registration={register('password')} error={formState.errors.password?.message} />
      <p className="auth-form__forgot">
        <Link to="/forgot-password" onClick={onForgotPassword}>
          Forgot password?
        </Link>
      </p>
      <button type="submit" className="button button--primary button--block" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

interface RegisterFormProps {
  readonly onSignedIn: () => void;
  readonly label: string;
  /** The page lists every unmet rule from the start; the narrow modal only once typing begins. */
  readonly rulesBeforeTyping?: boolean;
}

/** The register rules, checked in order, one message at a time, with the live list of unmet password rules. */
export function RegisterForm({ onSignedIn, label, rulesBeforeTyping = true }: RegisterFormProps) {
  const auth = useAuthActions();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, control } = useForm<RegisterForm>({
    resolver: zodResolver(registerSchema),
    defaultValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' },
  });
  const password = useWatch({ control, name: 'password' });
  const errors = formState.errors;
  const submit = handleSubmit(async ({ firstName, lastName, email, password }) => {
    setFailure(null);
    const { user, error } = await auth.register({ firstName: firstName.trim(), lastName: lastName.trim(), email: email.trim(), password });
    if (user) onSignedIn();
    else setFailure(registrationFailureMessage(error));
  });
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      {failure && <Banner kind="error">{failure}</Banner>}
      <div className="auth-form__names">
        <FormField label="First name" autoComplete="given-name" registration={register('firstName')} error={errors.firstName?.message} />
        <FormField label="Last name" autoComplete="family-name" registration={register('lastName')} error={errors.lastName?.message} />
      </div>
      <FormField label="Email" type="email" autoComplete="email" registration={register('email')} error={errors.email?.message} />
      <FormField
        label="Password"
        type="password"
        autoComplete="new-password"
        registration={register('password')}
        error={errors.password?.message}
        hint={rulesBeforeTyping || password ? <PasswordRulesList password={password} /> : undefined}
      />
      <FormField label="Confirm password" type="password" autoComplete="new-password" registration={register('confirmPassword')} error={errors.confirmPassword?.message} />
      <button type="submit" className="button button--primary button--block" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Creating account…' : 'Create account'}
      </button>
    </form>
  );
}
