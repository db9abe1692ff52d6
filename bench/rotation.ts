/**
 * Rotation under load from a pool of current tokens: each request takes one, each answer puts the
 * new one back. A run's last requests are cut off with their answers unread, so their tokens are
 * lost: each run starts with the pool topped up with new groups' tokens (`issueToken`). A request
 * that finds the pool empty would send no token and be refused fast: the run then fails, naming the
 * cause, instead of measuring refusals.
 */
import type { LoadOptions } from './load';

export const tokenOf = (answer: string) =>
  (JSON.parse(answer) as { user_group: { token: string } }).user_group.token;

export function rotationLoad(poolSize: number, issueToken: (serial: number) => Promise<string>) {
  const tokens: string[] = [];
  let issued = 0;
  let exhausted = 0;
  const request: NonNullable<LoadOptions['requests']>[number] = {
    setupRequest: (next) => {
      const token = tokens.shift();
      if (token === undefined) exhausted++;
      return { ...next, body: JSON.stringify({ current_token: token }) };
    },
    onResponse: (status, body) => {
      if (status === 200) tokens.push(tokenOf(body));
    },
  };
  const exhaustedError = (name: string) =>
    new Error(
      `${name}: ran out of prepared tokens ${exhausted} times (pool of ${poolSize}); the figure would count refusals`,
    );
  return {
    request,
    /** One rotation outside the load: its answer, the new token kept. */
    async rotateOnce(rotate: (token: string) => Promise<string>): Promise<string> {
      const token = tokens.shift() ?? (await issueToken(issued++));
      const answer = await rotate(token);
      tokens.push(tokenOf(answer));
      return answer;
    },
    /** Runs one load with the pool and fails it if the pool ran dry. */
    async checked<Result>(name: string, run: () => Promise<Result>): Promise<Result> {
      exhausted = 0;
      while (tokens.length < poolSize) tokens.push(await issueToken(issued++));
      const result = await run().catch((error: unknown) => {
        throw exhausted > 0 ? exhaustedError(name) : error;
      });
      if (exhausted > 0) throw exhaustedError(name);
      return result;
    },
  };
}
