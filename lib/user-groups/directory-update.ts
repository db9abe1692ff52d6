import 'server-only';
import type { ConsoleServer } from '@/lib/server';

/**
 * Updates the directory after an action of the service. The action happened either way: a
 * directory that missed it is repaired by the next look at the group, so a failure is logged (by
 * name only), never answered.
 */
export async function updateDirectory(
  { logger }: Pick<ConsoleServer, 'logger'>,
  requestId: string,
  change: Promise<void>,
): Promise<void> {
  await change.catch((error: unknown) =>
    logger.error({ requestId, err: { name: (error as Error)?.name } }, 'could not update the directory'),
  );
}
