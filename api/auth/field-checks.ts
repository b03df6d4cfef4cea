import { isEmailAddress, MAX_NAME_LENGTH } from '../contracts/account-rules';
import { HttpError } from '../http/errors';

/** Field checks whose failures carry the spec's words rather than the schema validator's. */
export function invalid(message: string): HttpError {
  return new HttpError(400, message, 'VALIDATION_FAILED');
}

/** The trimmed text, or a 400 with `message` when it is missing or blank. */
export function requiredText(value: string | undefined, message: string): string {
  const text = value?.trim() ?? '';
  if (text.length === 0) throw invalid(message);
  return text;
}

/** The trimmed email, or a 400: "Email is required", then "Please enter a valid email address". */
export function requiredEmail(value: string | undefined): string {
  const email = requiredText(value, 'Email is required');
  if (!isEmailAddress(email)) throw invalid('Please enter a valid email address');
  return email;
}

/** Names are required, trimmed and bounded (register and profile alike). */
export function requiredName(value: string | undefined, label: 'First name' | 'Last name'): string {
  const name = requiredText(value, `${label} is required`);
  if (name.length > MAX_NAME_LENGTH) throw invalid(`${label} must be at most ${MAX_NAME_LENGTH} characters`);
  return name;
}
