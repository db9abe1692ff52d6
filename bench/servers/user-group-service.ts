/**
 * The built-in service in its own process, as deployed: this process runs the CLI's `serve` with
 * its defaults and only the changes in bench/service-settings.ts, then prints {"url": …} once the
 * service answers. The CLI owns SIGTERM (it finishes in-flight requests and exits).
 */
import { createServer } from 'node:net';
import { serviceSettingChanges } from '../service-settings';

const database = process.argv[2];
if (!database) throw new Error('usage: user-group-service.ts <database>');

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
process.argv = [
  process.argv[0] ?? process.execPath,
  'lib/user-group-service/cli.ts',
  'serve',
  '--host',
  '127.0.0.1',
  '--port',
  String(port),
  '--database',
  database,
  ...serviceSettingChanges.flatMap((change) => change.flag.split(' ')),
];
await import('../../lib/user-group-service/cli');
await waitUntilAnswering(`${url}/api/health`);
process.stdout.write(`${JSON.stringify({ url })}\n`);

/** A port the kernel just handed out; the CLI takes it a moment later. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function waitUntilAnswering(target: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answered = await fetch(target).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the service did not answer ${target} within ${timeoutMs / 1000} s`);
}
