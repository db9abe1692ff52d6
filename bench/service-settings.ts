/**
 * How the bench runs the built-in service: `lib/user-group-service/cli.ts serve`, as deployed, with
 * every option at its CLI default except these. Printed with every run, so a figure names them.
 */
export const serviceSettingChanges = [
  {
    flag: '--no-rate-limit',
    why: 'the default 100 req/s per key (burst 200) would answer 429 within the first second of 32-connection load',
  },
  {
    flag: '--log-level warn',
    why: 'at the default (info) every request writes a JSON line to stdout; at 20k req/s that measures the bench draining the pipe on the same 2 cores, not the service',
  },
] as const;

/** Where to listen and which database: the bench's own throwaway choices, not settings. */
const servicePlacement = ['--host 127.0.0.1', '--port <free port>', '--database <temporary SQLite file>'];

export function describeServiceSettings(): string {
  return [
    `service: cli.ts serve ${servicePlacement.join(' ')} ${serviceSettingChanges.map((change) => change.flag).join(' ')}; everything else at its CLI default`,
    ...serviceSettingChanges.map((change) => `  ${change.flag}: ${change.why}`),
  ].join('\n');
}
