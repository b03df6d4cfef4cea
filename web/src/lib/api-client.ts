import type { ErrorAnswer } from '../../../api/contracts/common';

/**
 * The one way the app talks to the API: JSON in and out, a 10 s timeout, and errors that carry
 * the status and the server's own message.
 */

export const REQUEST_TIMEOUT_MS = 10_000;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    /** 0 when no answer came (network failure or timeout). */
    readonly status: number,
    readonly code?: string,
    /** A refused form's problems, each naming its field. */
    readonly fieldErrors?: ErrorAnswer['errors'],
  ) {
    super(message);
  }
}

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly body?: unknown;
  /** Send the signed-in user's access token. */
  readonly auth?: boolean;
  /** Send this access token (a session not stored yet). */
  readonly token?: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Extra request headers (e.g. Idempotency-Key on a bid). */
  readonly headers?: Readonly<Record<string, string>>;
}

let accessTokenSource: () => string | null = () => null;

/** The session (lib/auth/session.ts) says where the access token comes from. */
export function setAccessTokenSource(source: () => string | null): void {
  accessTokenSource = source;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const token = options.token ?? (options.auth ? accessTokenSource() : null);
  if (token) headers.authorization = `Bearer ${token}`;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      signal,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (timeout.aborted) throw new ApiError('The server took too long to answer', 0, 'TIMEOUT');
    throw new ApiError(error instanceof Error && error.message ? error.message : 'Network error', 0, 'NETWORK');
  }

  const text = await response.text();
  if (!response.ok) throw apiErrorOf(response.status, text);
  return parseJson(text) as T;
}

function parseJson(text: string): unknown {
  try {
    return text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** A refused answer as an ApiError. Any proxy on the way may answer instead of the API: nothing of the body is taken on trust. */
export function apiErrorOf(status: number, text: string): ApiError {
  const body = (parseJson(text) ?? {}) as Partial<Record<keyof ErrorAnswer, unknown>>;
  const message = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : text.trim() || `HTTP ${status}`;
  return new ApiError(message, status, typeof body.code === 'string' ? body.code : undefined, Array.isArray(body.errors) ? (body.errors as ErrorAnswer['errors']) : undefined);
}

/** The signed-in user's Authorization header, for the requests apiRequest does not make (an upload that shows its progress, a file download). */
export function authorizationHeader(): Record<string, string> {
  const token = accessTokenSource();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The message to show for any failure: the server's words when it gave some, else `fallback`. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.message;
  return fallback;
}

/**
 * A call made by a machine's promise actor with the actor's signal. React's StrictMode stops and
 * restarts a component's machine once (@xstate/react rehydrates it and runs the call again):
 * the first, aborted call must then neither resolve nor fail, or its AbortError would reach the
 * restarted machine as a failure.
 */
export async function unlessAborted<T>(signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await call(signal);
  } catch (error) {
    if (signal.aborted) return new Promise<T>(() => {});
    throw error;
  }
}
