import { z } from 'zod';
import { loginProblem, registerProblem } from './password-rules';

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
