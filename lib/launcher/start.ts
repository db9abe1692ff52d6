/**
 * `npm start`: one command that starts everything, Ctrl-C stops everything.
 *
 * - Builds the console when no build exists.
 * - With no User Group Service configured (the embedded default), starts the built-in one on
 *   loopback with its database under DATA_DIR, creates the console's API key for each environment
 *   once, and hands them to the console. Otherwise the console talks to the configured servers with
 *   each environment's key (lib/config).
 * - Migrates the console database (operators, sessions, audit log) and creates the first admin
 *   when there is none, printing a generated password once (lib/launcher/operator-sign-in.ts).
 * - Serves the console (serve-console.ts: Next's handler behind node:http) in this same process,
 *   beside the embedded service: one process rather than a launcher and a child, because each
 *   Node process holds its own runtime, modules and heap (bench/README.md, "Footprint"). Stopping
 *   it stops both and frees both ports.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { realClock } from '@/lib/clock';
import { type ConsoleConfig, parseConfig } from '@/lib/config';
import { environments } from '@/lib/environments';
import { redactUrlCredentials, redactUrlsInText } from '@/lib/redact-url';
import { keepServingWithoutLogPipe } from './closed-log-pipe';
import { ensureEmbeddedService, type Upstream } from './embedded-service';
import { prepareOperatorSignIn } from './operator-sign-in';
import { serveConsole } from './serve-console';

const require = createRequire(import.meta.url);
const nextBin = require.resolve('next/dist/bin/next');

function log(message: string): void {
  process.stdout.write(`[console] ${message}\n`);
}

function runNext(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  // Next's anonymous telemetry stays off: nothing leaves the machine to run the console.
  return spawn(process.execPath, [nextBin, ...args], {
    stdio: 'inherit',
    env: { ...env, NEXT_TELEMETRY_DISABLED: '1' },
  });
}

function exitCode(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code, signal) => resolve(code ?? (signal ? 0 : 1)));
  });
}

async function main(): Promise<void> {
  keepServingWithoutLogPipe();
  const config = parseConfig(process.env);

  if (!existsSync(path.join(process.cwd(), '.next', 'BUILD_ID'))) {
    log('no build found: building the console once (npm run build rebuilds it later)');
    const code = await exitCode(runNext(['build'], process.env));
    if (code !== 0) process.exit(code);
  }

  const upstream = await upstreamFor(config);
  const signIn = await prepareOperatorSignIn(config, log, realClock).catch(async (error: unknown) => {
    await upstream.close();
    throw error;
  });
  // The console's routes read the same variables as the launcher, with what it has decided since:
  // the service's address and keys, and where the console is reached.
  Object.assign(process.env, {
    ...upstream.env,
    DATA_DIR: config.dataDir,
    PORT: String(config.port),
    CONSOLE_URL: signIn.consoleUrl,
  });
  const consoleServer = await serveConsole({
    port: config.port,
    hostname: config.hostname,
    limits: config.http,
    metricsAccess: {
      token: config.metricsToken,
      trustedProxies: config.trustedProxies,
      ownHosts: [new URL(signIn.consoleUrl).hostname],
    },
  }).catch(async (error: unknown) => {
    await upstream.close();
    throw error;
  });
  log(
    `console on ${signIn.consoleUrl} using the User Group Service at ${redactUrlCredentials(upstream.url)}`,
  );
  // Last, so that the end of the output is where to look; requests are logged at debug by default.
  for (const line of signIn.firstAdminLines) log(line);

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    await consoleServer.close();
    await upstream.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** The vendor's server when one is configured (the server reads the same variables), else the embedded one. */
async function upstreamFor(config: ConsoleConfig): Promise<Upstream> {
  const configured = environments.map((environment) => config.upstreams[environment]).find(Boolean);
  if (configured) return { env: {}, url: configured.baseUrl, close: async () => {} };
  return ensureEmbeddedService(config, log, realClock);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[console] could not start: ${redactUrlsInText(error instanceof Error ? error.message : String(error))}\n`,
  );
  process.exit(1);
});
