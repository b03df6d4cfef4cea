/**
 * Every rule the engine enforces fails with a DomainError: a stable code (what clients and tests
 * match on), a message a person can read (the spec's wording where it has one) and the kind of
 * failure, which the API turns into an HTTP status in one place.
 */
export type DomainErrorKind =
  /** the command itself is malformed or breaks a rule about its own content */
  | 'invalid'
  /** the thing the command refers to does not exist */
  | 'not_found'
  /** the command is well formed but the aggregate's current state refuses it */
  | 'rejected'
  /** the actor may not issue this command */
  | 'forbidden';

export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: string,
    readonly kind: DomainErrorKind,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export function invalid(code: string, message: string, details?: Record<string, unknown>): DomainError {
  return new DomainError(code, 'invalid', message, details);
}

export function notFound(code: string, message: string, details?: Record<string, unknown>): DomainError {
  return new DomainError(code, 'not_found', message, details);
}

export function rejected(code: string, message: string, details?: Record<string, unknown>): DomainError {
  return new DomainError(code, 'rejected', message, details);
}

export function forbidden(code: string, message: string, details?: Record<string, unknown>): DomainError {
  return new DomainError(code, 'forbidden', message, details);
}

/** Ends every exhaustive switch: adding a command or event type without handling it fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
