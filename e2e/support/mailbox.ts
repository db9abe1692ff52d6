import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';
import { type ParsedMail, simpleParser } from 'mailparser';
import { smtpReceiver } from './mail-settings';

/** The messages the run's SMTP server received for an address, oldest first. */
async function messagesTo(address: string): Promise<ParsedMail[]> {
  const names = await readdir(smtpReceiver.mailDir).catch(() => [] as string[]);
  const messages = await Promise.all(
    names
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .map(async (name) => simpleParser(await readFile(path.join(smtpReceiver.mailDir, name)))),
  );
  return messages.filter((message) => {
    const to = Array.isArray(message.to) ? message.to : message.to ? [message.to] : [];
    return to.some((field) => field.value.some((entry) => entry.address === address));
  });
}

/** Waits for the one message sent to an address, and answers it. */
export async function receivedMail(address: string): Promise<ParsedMail> {
  let found: ParsedMail[] = [];
  await expect
    .poll(
      async () => {
        found = await messagesTo(address);
        return found.length;
      },
      { message: `an email to ${address}`, timeout: 15_000 },
    )
    .toBe(1);
  return found[0] as ParsedMail;
}
