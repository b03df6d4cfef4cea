import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from './FormField';
import { PasswordRulesList } from './PasswordRulesList';

/** A new password with the live list of the rules it does not meet yet, and its confirmation: the change form and the reset form alike. */
export function NewPasswordFields({
  password,
  registration,
  errors,
}: {
  /** What the new-password field holds now (useWatch). */
  password: string;
  registration: { newPassword: UseFormRegisterReturn; confirmPassword: UseFormRegisterReturn };
  errors: { newPassword?: string | undefined; confirmPassword?: string | undefined };
}) {
  return (
    <>
      <FormField
        label="New password"
        type="password"
        autoComplete="new-password"
        registration={registration.newPassword}
        error={errors.newPassword}
        hint={<PasswordRulesList password={password} />}
      />
      <FormField label="Confirm new password" type="password" autoComplete="new-password" registration={registration.confirmPassword} error={errors.confirmPassword} />
    </>
  );
}
