// Who may try a password, and how many hashes run at once. A login costs a 32 MiB scrypt, so
// without bounds one client saturates the CPU, and a limit per address and e-mail alone lets
// one address try a password on every account (spraying) or many addresses try one account.
// So an attempt must pass four token buckets — address and e-mail, address, account, and all
// attempts together — and hashing runs at most `hashConcurrency` at a time, with a short queue
// beyond which the attempt is refused (429) rather than left to pile up.
import { TooManyRequests } from '../common/errors.js';
import { RateLimiter } from '../common/rate-limiter.js';

export interface LoginLimits {
  /** Per address and e-mail, per minute; the per-address and per-account buckets get three times this. */
  loginAttemptsPerMinute: number;
  /** All attempts on this API process, per minute. */
  loginGlobalAttemptsPerMinute: number;
  /** Password hashes computed at once. */
  loginHashConcurrency: number;
}

/** Attempts waiting for a hashing slot beyond which more are refused. */
const QUEUE_PER_SLOT = 16;

export class LoginThrottle {
  private readonly limiters: { key: (address: string, account: string) => string; limiter: RateLimiter }[];
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limits: LoginLimits) {
    const perMinute = (n: number) => new RateLimiter(n / 60, n);
    const broad = limits.loginAttemptsPerMinute * 3;
    this.limiters = [
      { key: (address, account) => `${address}|${account}`, limiter: perMinute(limits.loginAttemptsPerMinute) },
      { key: (address) => address, limiter: perMinute(broad) },
      { key: (_address, account) => account, limiter: perMinute(broad) },
      { key: () => 'all', limiter: perMinute(limits.loginGlobalAttemptsPerMinute) },
    ];
  }

  /** Takes a token from every bucket; throws 429 with the longest wait when any is empty. */
  admit(address: string, email: string): void {
    const account = email.trim().toLowerCase();
    const wait = Math.max(...this.limiters.map(({ key, limiter }) => limiter.take(key(address, account))));
    if (wait > 0) throw new TooManyRequests(wait);
  }

  /** Runs `hash` when a slot is free; 429 when too many attempts already wait. */
  async hashing<T>(hash: () => Promise<T>): Promise<T> {
    const slots = Math.max(1, this.limits.loginHashConcurrency);
    if (this.active >= slots) {
      if (this.waiting.length >= slots * QUEUE_PER_SLOT) throw new TooManyRequests(1);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await hash();
    } finally {
      // The slot passes straight to the next waiter, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
