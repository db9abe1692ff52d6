import 'server-only';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { ConsoleError } from '@/lib/console-error';

/**
 * Spends `points` token look-ups of an operator (Identify's one, a draft rotation's pasted tokens)
 * from one of the server's windows; over it, 429 with when to retry, in the console's words.
 */
export async function spendLookUps(
  limit: RateLimiterAbstract,
  operatorId: string,
  points: number,
  tooMany: string,
): Promise<void> {
  try {
    await limit.consume(`operator:${operatorId}`, points);
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    const retryAfterSeconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    throw new ConsoleError('rate_limited', `${tooMany}: retry in ${retryAfterSeconds} s.`, {
      retryAfterSeconds,
    });
  }
}
