/**
 * An authenticator app for tests, from the secret the enrolment hands out (base32, as in the QR
 * code). The console takes each code once (lib/two-factor/used-codes.ts), the enrolment's first code
 * included, so every call answers a code valid now that this app has not handed out before: the
 * current period's, else the next one's or the last one's, which the check also accepts.
 */
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { realClock } from '@/lib/clock';

const PERIOD_MS = 30_000;
const handedOut = new Map<string, Set<string>>();

/** `now`: the moment the code is for (the console checks it against the server's clock). */
export async function freshCode(secret: string, now = realClock.now()): Promise<string> {
  const key = secret.replace(/\s+/g, '');
  const otp = createOTP(new TextDecoder().decode(base32.decode(key)));
  const used = handedOut.get(key) ?? new Set<string>();
  handedOut.set(key, used);
  const period = Math.floor(now / PERIOD_MS);
  for (const counter of [period, period + 1, period - 1]) {
    const code = await otp.hotp(counter);
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
  }
  throw new Error('every code this app may use now was used already: wait for the next period');
}
