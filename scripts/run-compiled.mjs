// @ts-check
/**
 * `npm start`, `npm run service -- …`, `npm run migrate` and `npm run audit -- verify`: builds what is missing or stale
 * (scripts/build-state.mjs), then runs the compiled code in this same process, with plain node. A
 * deployment runs the compiled files itself, without npm (README, "Production start").
 *
 *   node scripts/run-compiled.mjs start | service [args…] | migrate | audit [args…]
 *
 * Plain JavaScript, since it runs before anything is compiled. Its messages go to stderr: the
 * service's `keys create` prints the new key alone on its last line of stdout.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serverOutDir, staleBuild, staleServerBuild } from './build-state.mjs';

const root = process.cwd();
/** @type {Record<string, { entry: string, needsConsole: boolean }>} */
const commands = {
  start: { entry: 'launcher/start.js', needsConsole: true },
  service: { entry: 'service/cli.js', needsConsole: false },
  migrate: { entry: 'launcher/migrate.js', needsConsole: false },
  audit: { entry: 'audit/cli.js', needsConsole: false },
};

const name = process.argv[2] ?? '';
const command = commands[name];
if (!command) {
  process.stderr.write(`usage: node scripts/run-compiled.mjs ${Object.keys(commands).join('|')} [args…]\n`);
  process.exit(2);
}
// What follows the command's name is the command's own: the service CLI reads process.argv.
process.argv.splice(2, 1);

/** @param {string} message */
const say = (message) => process.stderr.write(`[build] ${message}\n`);

if (command.needsConsole) {
  const stale = staleBuild(root);
  if (stale) {
    say(
      `${stale}: building the console (next build, a few minutes on a small machine; npm run build does the same)`,
    );
    const nextBin = createRequire(path.join(root, 'package.json')).resolve('next/dist/bin/next');
    // Next's anonymous telemetry stays off: nothing leaves the machine to build the console.
    const { status } = spawnSync(process.execPath, [nextBin, 'build'], {
      stdio: 'inherit',
      cwd: root,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    if (status !== 0) process.exit(status ?? 1);
  }
}
const staleServer = staleServerBuild(root);
if (staleServer) {
  say(`${staleServer}: compiling the server code`);
  // Loaded only here: a start with everything built does not load esbuild.
  const { buildServer } = await import('./server-build.mjs');
  await buildServer(root);
}

await import(pathToFileURL(path.join(root, serverOutDir, command.entry)).href);
