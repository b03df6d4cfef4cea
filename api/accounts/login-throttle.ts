/**
 * Slows password guessing without letting an attacker lock a real user out.
 *
 * Failed attempts are counted per (account, client IP) pair and per client IP, in a sliding
 * window. A pair over its limit blocks only that account from that address: the account's owner,
 * signing in from anywhere else, is never refused because of someone else's failures. The per-IP
 * limit bounds one address guessing across many accounts.
 *
 * Counts live in memory, bounded in size. With several API processes each keeps its own counts,
 * which still bounds guessing (per process, so the limits multiply by the number of processes);
 * a restart forgets them.
 */
export interface LoginThrottleLimits {
  /** Failures allowed for one account from one address within the window. */
  readonly perAccountAndIp: number;
  /** Failures allowed from one address, whatever the accounts, within the window. */
  readonly perIp: number;
  readonly windowMs: number;
  /** Counters kept at most, per kind; the oldest are forgotten first. */
  readonly maxEntries: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = {
  perAccountAndIp: 5,
  perIp: 50,
  windowMs: 15 * 60_000,
  maxEntries: 100_000,
};

export type ThrottleVerdict = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Failure times of one key, oldest first, never more than the limit that applies to it. */
class SlidingWindowCounter {
  readonly #failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxEntries: number,
  ) {}

  /** Seconds until the key may try again, or 0 when it is under its limit. */
  waitSeconds(key: string, now: number): number {
    const recent = this.#recent(key, now);
    if (recent.length < this.limit) return 0;
    // The window slides: the key is free again once its oldest counted failure leaves it.
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
  }

  record(key: string, now: number): void {
    const recent = this.#recent(key, now);
    recent.push(now);
    if (recent.length > this.limit) recent.splice(0, recent.length - this.limit);
    // Re-inserting moves the key to the end, so the first key is always the least recently failed.
    this.#failures.delete(key);
    this.#failures.set(key, recent);
    while (this.#failures.size > this.maxEntries) {
      const oldest = this.#failures.keys().next().value as string;
      this.#failures.delete(oldest);
    }
  }

  forget(key: string): void {
    this.#failures.delete(key);
  }

  #recent(key: string, now: number): number[] {
    const times = this.#failures.get(key);
    if (!times) return [];
    const recent = times.filter((time) => time > now - this.windowMs);
    if (recent.length === 0) this.#failures.delete(key);
    else if (recent.length !== times.length) this.#failures.set(key, recent);
    return recent;
  }
}

export class LoginThrottle {
  readonly #byAccountAndIp: SlidingWindowCounter;
  readonly #byIp: SlidingWindowCounter;

  constructor(readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS) {
    this.#byAccountAndIp = new SlidingWindowCounter(limits.perAccountAndIp, limits.windowMs, limits.maxEntries);
    this.#byIp = new SlidingWindowCounter(limits.perIp, limits.windowMs, limits.maxEntries);
  }

  /** Asked before the password is checked: a blocked attempt is refused without a verdict on it. */
  check(account: string, ip: string, now: Date): ThrottleVerdict {
    const at = now.getTime();
    const wait = Math.max(this.#byAccountAndIp.waitSeconds(pairKey(account, ip), at), this.#byIp.waitSeconds(ip, at));
    return wait === 0 ? { allowed: true } : { allowed: false, retryAfterSeconds: wait };
  }

  recordFailure(account: string, ip: string, now: Date): void {
    const at = now.getTime();
    this.#byAccountAndIp.record(pairKey(account, ip), at);
    this.#byIp.record(ip, at);
  }

  /**
   * A correct password clears that account's failures from that address. The address's own count
   * stays: signing in to one's own account must not buy more guesses at others.
   */
  recordSuccess(account: string, ip: string): void {
    this.#byAccountAndIp.forget(pairKey(account, ip));
  }
}

function pairKey(account: string, ip: string): string {
  // JSON keeps the pair unambiguous whatever characters the account name holds.
  return JSON.stringify([account, ip]);
}
