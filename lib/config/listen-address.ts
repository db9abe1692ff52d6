import os from 'node:os';
import { z } from 'zod';
import { optional } from './env-values';

/** Where the console's own server listens. */
export const listenEnv = {
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  CONSOLE_HOSTNAME: optional(z.string()),
  HOSTNAME: optional(z.string()),
};

/**
 * Where the console listens. Operators sign in, so the console may listen beyond loopback, but
 * only when asked to: CONSOLE_HOSTNAME, else HOSTNAME, else 127.0.0.1. HOSTNAME is ignored when it
 * is just this machine's name, which Docker (the container id) and some shells export on their
 * own: that is not a choice to listen on the network. Use 0.0.0.0 for every interface.
 */
export function listenAddress(
  consoleHostname: string | undefined,
  hostname: string | undefined,
  machineName: string = os.hostname(),
): string {
  if (consoleHostname) return consoleHostname;
  if (hostname && hostname !== machineName) return hostname;
  return '127.0.0.1';
}
