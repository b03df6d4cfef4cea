/** What the app reads from an access token: never trusted, only for timing and display. */
export interface AccessClaims {
  readonly sub: string;
  readonly roles: readonly string[];
  /** Seconds since the epoch. */
  readonly exp: number;
}

/** null when the token is not three dot-separated parts with a readable payload: such a token counts as expired. */
export function readAccessToken(token: string): AccessClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const json = atob(parts[1]!.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as Partial<AccessClaims>;
    if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return null;
    return { sub: claims.sub, roles: Array.isArray(claims.roles) ? claims.roles : [], exp: claims.exp };
  } catch {
    return null;
  }
}

/** Refresh this long (300 s) before the access token expires. */
export const REFRESH_LEAD_MS = 300_000;

/** How long until the session should be refreshed: 0 when that moment has passed (or the token is unreadable). */
export function refreshDelay(accessToken: string, now: number): number {
  const claims = readAccessToken(accessToken);
  if (!claims) return 0;
  return Math.max(0, claims.exp * 1000 - REFRESH_LEAD_MS - now);
}
