import { z } from 'zod';
import { forgotPasswordProblem, loginProblem, registerProblem, resetPasswordProblem } from './password-rules';

/**
 * One schema per form. The rules live in password-rules.ts; the schema reports only the first
 * unmet one so that the form shows one message at a time, in the rules' order.
 */
export const registerSchema = z
  .object({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    password: z.string(),
    confirmPassword: z.string(),
  })
  .superRefine((values, context) => {
    const problem = registerProblem(values);
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });

export type RegisterForm = z.infer<typeof registerSchema>;

export const loginSchema = z
  .object({ email: z.string(), password: z.string() })
  .superRefine((values, context) => {
    const problem = loginProblem(values);
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });

export type LoginForm = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z
  .object({ email: z.string() })
  .superRefine((values, context) => {
    const problem = forgotPasswordProblem(values);
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });

export type ForgotPasswordForm = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z
  .object({ newPassword: z.string(), confirmPassword: z.string() })
  .superRefine((values, context) => {
    const problem = resetPasswordProblem(values);
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });

export type ResetPasswordForm = z.infer<typeof resetPasswordSchema>;
