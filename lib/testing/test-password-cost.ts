/**
 * Vitest setup file (vitest.config.ts), never imported by the console: operator passwords hashed at
 * a test cost. better-auth hashes with node:crypto scrypt at N = 16384, r = 16 (16 MB, about 200 ms
 * of CPU a hash here), and the route tests create operators and sign in a few hundred times: on a
 * busy 2-core machine that was a large share of the unit suite's time. In the test workers only, a
 * scrypt call with exactly those parameters runs at N = 64 instead. Every hash and every check in a
 * worker goes through it, so a password still verifies only against its own hash, and a wrong one
 * is still refused; any other scrypt call (other parameters) is left alone. Child processes a test
 * spawns do not load this file: none of them hashes passwords.
 */
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

const production = { N: 16_384, r: 16, p: 1, keyLength: 64 };
const TEST_N = 64;

// Set up once per worker: the `unit` project runs this file before every test file in one worker.
const WRAPPED = Symbol.for('console.test-password-cost');
const wrapped = (crypto.scrypt as { [WRAPPED]?: true })[WRAPPED] === true;
const scrypt = crypto.scrypt;

function atTestCost(options: crypto.ScryptOptions | undefined, keyLength: number) {
  const { N, r, p } = options ?? {};
  if (N !== production.N || r !== production.r || p !== production.p || keyLength !== production.keyLength)
    return options;
  return { ...options, N: TEST_N, maxmem: undefined };
}

if (!wrapped) installTestCost();

function installTestCost() {
  crypto.scrypt = ((
    password: crypto.BinaryLike,
    salt: crypto.BinaryLike,
    keyLength: number,
    ...rest: unknown[]
  ) => {
    const callback = rest.at(-1) as (error: Error | null, key: Buffer) => void;
    const options = rest.length > 1 ? (rest[0] as crypto.ScryptOptions) : undefined;
    return scrypt(password, salt, keyLength, atTestCost(options, keyLength) ?? {}, callback);
  }) as typeof crypto.scrypt;
  Object.defineProperty(crypto.scrypt, WRAPPED, { value: true });

  // Named ESM imports of node:crypto (better-auth's `import { scrypt } from 'node:crypto'`) see the change.
  syncBuiltinESMExports();
}
