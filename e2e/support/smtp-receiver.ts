/**
 * The e2e run's SMTP server (lib/testing/smtp-receiver.ts) as a process: every message the console
 * sends is written to e2e/.data/mail/<time>-<n>.eml (the folder is made anew when the console's
 * start empties e2e/.data):
 *
 *   node --import tsx e2e/support/smtp-receiver.ts   (port from E2E_SMTP_PORT, else the console's + 5)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startSmtpReceiver } from '../../lib/testing/smtp-receiver';
import { smtpReceiver } from './mail-settings';

let count = 0;
const receiver = await startSmtpReceiver({
  port: smtpReceiver.port,
  onMail: async ({ raw }) => {
    await mkdir(smtpReceiver.mailDir, { recursive: true });
    count += 1;
    await writeFile(path.join(smtpReceiver.mailDir, `${Date.now()}-${count}.eml`), raw);
  },
});
process.stdout.write(`SMTP receiver on 127.0.0.1:${receiver.port}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void receiver.close().then(() => process.exit(0)));
