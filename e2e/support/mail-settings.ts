import path from 'node:path';
import { consolePort, e2eDataDir } from './servers';

/**
 * The e2e run's SMTP server (e2e/support/smtp-receiver.ts) and how the console meets it: every
 * message it accepts is written to e2e/.data/mail/ as an .eml file, for the specs to read back.
 */
const port = Number(process.env.E2E_SMTP_PORT ?? consolePort + 5);

export const smtpReceiver = { port, mailDir: path.join(e2eDataDir, 'mail') };

/** The console's mail variables for the run. */
export const mailEnv = {
  SMTP_URL: `smtp://127.0.0.1:${port}`,
  SMTP_FROM: 'User Group Console <console@e2e.example>',
};
