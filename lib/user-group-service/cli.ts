/**
 * CLI: `tsx lib/user-group-service/cli.ts serve | keys create | keys list | keys revoke <id>`.
 * Logs go to stdout as JSON (pino); command results are written with process.stdout.write; errors go
 * to stderr with exit code 1. `keys create` prints the new key alone on its last line of stdout.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { redactUrlsInText } from '../redact-url';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys';
import { createLogger } from './logger';
import { clockFromParent } from './parent-clock';
import { DEFAULT_HTTP_LIMITS, startUserGroupService } from './server';

const DEFAULT_DATABASE = './data/user-group-service.sqlite';
const DATABASE_ENV = 'USER_GROUP_SERVICE_DATABASE';

const databaseOption = () =>
  new Option('--database <path-or-url>', 'SQLite file (created with its directory) or postgres:// URL')
    .env(DATABASE_ENV)
    .default(DEFAULT_DATABASE);

const integer = (min: number, max: number) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
  }
  return parsed;
};

const positiveNumber = (value: string) => {
  const parsed = Number(value);
  if (!(parsed > 0) || !Number.isFinite(parsed)) throw new InvalidArgumentError('expected a positive number');
  return parsed;
};

const print = (line: string) => process.stdout.write(`${line}\n`);

const program = new Command('user-group-service')
  .description('The built-in User Group Service: HTTP server and API key management')
  .showHelpAfterError();

program
  .command('serve')
  .description('run the HTTP server until SIGTERM or SIGINT (then finish in-flight requests and exit 0)')
  .option('--port <port>', 'port to listen on (0 picks a free one)', integer(0, 65535), 4010)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .addOption(databaseOption())
  .option('--rate-limit-per-second <n>', 'requests per second per API key (per process)', positiveNumber, 100)
  .option('--rate-limit-burst <n>', 'burst per API key', positiveNumber, 200)
  .option('--no-rate-limit', 'turn the per-key rate limit off (benchmarks)')
  .option(
    '--headers-timeout-ms <ms>',
    'time a client has to send the request head',
    integer(1, 3_600_000),
    DEFAULT_HTTP_LIMITS.headersTimeoutMs,
  )
  .option(
    '--request-timeout-ms <ms>',
    'time a client has to send the whole request',
    integer(1, 3_600_000),
    DEFAULT_HTTP_LIMITS.requestTimeoutMs,
  )
  .option(
    '--keep-alive-timeout-ms <ms>',
    'idle time before a keep-alive connection is closed',
    integer(1, 3_600_000),
    DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs,
  )
  .option(
    '--max-connections <n>',
    'open connections at most; more are closed on accept',
    integer(1, 1_000_000),
    DEFAULT_HTTP_LIMITS.maxConnections,
  )
  .option('--log-level <level>', 'pino log level (env LOG_LEVEL)', process.env.LOG_LEVEL ?? 'info')
  .addHelpText(
    'after',
    '\nThe token encryption key comes from env SERVICE_ENCRYPTION_KEY, else <database>.key.',
  )
  .action(
    async (options: {
      port: number;
      host: string;
      database: string;
      rateLimit: boolean;
      rateLimitPerSecond: number;
      rateLimitBurst: number;
      headersTimeoutMs: number;
      requestTimeoutMs: number;
      keepAliveTimeoutMs: number;
      maxConnections: number;
      logLevel: string;
    }) => {
      const logger = createLogger(options.logLevel);
      // Signals are taken from the start: one that arrives while the service is still starting (it
      // logs "listening" before it returns) stops it as soon as it has started.
      let stop: ((signal: string) => void) | undefined;
      let pendingSignal: string | undefined;
      const onSignal = (signal: string) => {
        if (stop) stop(signal);
        else pendingSignal = signal;
      };
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      const service = await startUserGroupService({
        host: options.host,
        port: options.port,
        database: options.database,
        rateLimit: options.rateLimit
          ? { perSecond: options.rateLimitPerSecond, burst: options.rateLimitBurst }
          : false,
        headersTimeoutMs: options.headersTimeoutMs,
        requestTimeoutMs: options.requestTimeoutMs,
        keepAliveTimeoutMs: options.keepAliveTimeoutMs,
        maxConnections: options.maxConnections,
        logger,
        clock: clockFromParent(),
      });
      stop = (signal: string) => {
        logger.info({ signal }, 'shutting down');
        // Log lines are written asynchronously: flush them before exiting.
        const exit = (code: number) => logger.flush(() => process.exit(code));
        service.close().then(
          () => exit(0),
          (error: unknown) => {
            logger.error({ err: error }, 'shutdown failed');
            exit(1);
          },
        );
      };
      if (pendingSignal) stop(pendingSignal);
    },
  );

const keys = program.command('keys').description('manage API keys (stored only as SHA-256 digests)');

keys
  .command('create')
  .description('create an API key; the key is printed once, alone on the last line')
  .addOption(
    new Option('--environment <environment>', 'environment the key works in')
      .choices(['Customer', 'Testing'])
      .makeOptionMandatory(),
  )
  .option('--name <name>', 'a label for the key')
  .addOption(databaseOption())
  .action(async (options: { environment: 'Customer' | 'Testing'; name?: string; database: string }) => {
    const created = await createApiKey(options);
    print(
      `created API key ${created.id} (${created.environment}, "${created.name}"); it is shown only once:`,
    );
    print(created.key);
  });

keys
  .command('list')
  .description('list API keys (ids, environments, names, status; never the keys)')
  .option('--json', 'print JSON instead of a table')
  .addOption(databaseOption())
  .action(async (options: { json?: boolean; database: string }) => {
    const records = await listApiKeys(options);
    if (options.json) {
      print(JSON.stringify(records, null, 2));
      return;
    }
    print(['id', 'environment', 'status', 'created_at', 'name'].join('\t'));
    for (const record of records) {
      const status = record.revokedAt ? `revoked ${record.revokedAt}` : 'active';
      print([record.id, record.environment, status, record.createdAt, record.name].join('\t'));
    }
  });

keys
  .command('revoke')
  .description('revoke an API key by id (a running server stops accepting it within 5 s)')
  .argument('<id>', 'the key id, as shown by `keys list`')
  .addOption(databaseOption())
  .action(async (id: string, options: { database: string }) => {
    if (await revokeApiKey({ database: options.database, id })) {
      print(`revoked ${id}`);
    } else {
      console.error(`no active API key with id ${id}`);
      process.exitCode = 1;
    }
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  // A driver's message may quote the --database URL, password included.
  console.error(`error: ${redactUrlsInText(error instanceof Error ? error.message : String(error))}`);
  process.exit(1);
});
