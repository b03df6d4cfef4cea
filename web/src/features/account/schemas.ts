import { z } from 'zod';
import { emailChangeProblem, passwordChangeProblem, profileProblem } from './security-rules';

/** One schema per form; each reports its first problem only, in the rules' order. */

export const profileSchema = z
  .object({ firstName: z.string(), lastName: z.string(), phone: z.string(), marketingOptIn: z.boolean(), transactionalOptOut: z.boolean() })
  .superRefine((values, context) => {
    const problem = profileProblem(values);
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
export type ProfileForm = z.infer<typeof profileSchema>;

/** The current email is known only at run time, so the schema is made per user. */
export function emailChangeSchema(currentEmail: string) {
  return z.object({ newEmail: z.string(), confirmEmail: z.string() }).superRefine((values, context) => {
    const problem = emailChangeProblem(currentEmail, values);
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
}
export type EmailChangeForm = z.infer<ReturnType<typeof emailChangeSchema>>;

export const passwordChangeSchema = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .superRefine((values, context) => {
    const problem = passwordChangeProblem(values);
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
export type PasswordChangeForm = z.infer<typeof passwordChangeSchema>;
