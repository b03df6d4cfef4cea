import { z } from 'zod';
import { forgotPasswordProblem, loginProblem, registerProblem, resetPasswordProblem, type FieldProblem } from './password-rules';

/**
 * One schema per form. The rules live in password-rules.ts; the schema reports only the first
 * unmet one so that the form shows one message at a time, in the rules' order.
 */
function checkedBy<Shape extends Record<string, z.ZodString>>(shape: Shape, problemOf: (values: z.infer<z.ZodObject<Shape>>) => FieldProblem<string> | null) {
  return z.object(shape).superRefine((values, context) => {
    const problem = problemOf(values);
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
}

export const registerSchema = checkedBy(
  { firstName: z.string(), lastName: z.string(), email: z.string(), password: z.string(), confirmPassword: z.string() },
  registerProblem,
);
export type RegisterForm = z.infer<typeof registerSchema>;

export const loginSchema = checkedBy({ email: z.string(), password: z.string() }, loginProblem);
export type LoginForm = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = checkedBy({ email: z.string() }, forgotPasswordProblem);
export type ForgotPasswordForm = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = checkedBy({ newPassword: z.string(), confirmPassword: z.string() }, resetPasswordProblem);
export type ResetPasswordForm = z.infer<typeof resetPasswordSchema>;
