// The login throttle and the rate limiter under it, without a server: hashing is bounded, and
// filling the bucket table with other keys never refills a limited one.
import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../src/auth/login-throttle.js';
import { RateLimiter } from '../src/common/rate-limiter.js';

describe('the rate limiter', () => {
  it('keeps a limited key limited while the table fills with others', () => {
    const limiter = new RateLimiter(1 / 60, 3, 1000);
    const now = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.take('victim', now)).toBe(0);
    expect(limiter.take('victim', now)).toBeGreaterThan(0);
    for (let i = 0; i < 50_000; i++) limiter.take(`filler-${i}`, now + i);
    expect(limiter.size).toBeLessThanOrEqual(1000);
    expect(limiter.take('victim', now + 50_000)).toBeGreaterThan(0);
  });
});

describe('the login throttle', () => {
  it('hashes at most `loginHashConcurrency` passwords at once and refuses a long queue', async () => {
    const throttle = new LoginThrottle({ loginAttemptsPerMinute: 1000, loginGlobalAttemptsPerMinute: 1000, loginHashConcurrency: 2 });
    let active = 0;
    let most = 0;
    const hash = () =>
      throttle.hashing(async () => {
        active++;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 20));
        active--;
        return true;
      });
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, hash));
    expect(most).toBe(2);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused.length).toBe(40 - 2 - 32);
    expect((refused[0] as PromiseRejectedResult).reason.status).toBe(429);
    expect(await hash()).toBe(true);
  });
});
