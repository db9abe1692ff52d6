/** The built-in service in its own process, as deployed: rate limit off, request log off. */
import { startUserGroupService } from '../../lib/user-group-service';

const database = process.argv[2];
if (!database) throw new Error('usage: user-group-service.ts <database>');
const service = await startUserGroupService({
  host: '127.0.0.1',
  port: 0,
  database,
  rateLimit: false,
  logLevel: 'warn',
});
process.stdout.write(`${JSON.stringify({ url: service.url })}\n`);
process.on('SIGTERM', () => void service.close().then(() => process.exit(0)));
