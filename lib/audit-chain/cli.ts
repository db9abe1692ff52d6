/**
 * `npm run audit -- verify [--anchor <file>] [--public-key <file>] [--json]`: recomputes the audit
 * chain on the console database the environment names (DATA_DIR's SQLite file, or DATABASE_URL),
 * against an anchor kept outside the database (the checkpoint in DATA_DIR by default, or the last
 * seal a SIEM received), and names the first entry that was changed, removed or inserted. Reads only:
 * it neither migrates nor makes a key.
 * `npm run audit -- public-key` prints the public key, for a verifier that should hold no more.
 * `npm run audit -- stream-off` switches the SIEM stream off for good (on record).
 *
 * Exit codes, one meaning each: 0 verified; 1 tampering found; 2 no key to check the seals with;
 * 3 the database or its audit tables cannot be read; 64 usage (a bad option, an unreadable anchor).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { onRecordFromCommand } from '@/lib/audit/command-record';
import { closeAuditStream } from '@/lib/audit-stream/delivery';
import { realClock } from '@/lib/clock';
import { parseConfig } from '@/lib/config';
import { openConsoleDatabase } from '@/lib/db/console-database';
import { describeDatabase } from '@/lib/db/describe';
import { redactUrlsInText } from '@/lib/redact-url';
import { CHECKPOINT_FILE, readAnchorFile, type SealAnchor } from './anchor';
import { describeChainReport } from './contract';
import { readAuditVerifier } from './signing-key';
import { type VerifiedPoint, verifyAuditChainFrom } from './verify';

const EXIT = { verified: 0, tampered: 1, noKey: 2, database: 3, usage: 64 } as const;

const print = (line: string) => process.stdout.write(`${line}\n`);

function fail(code: number, message: string): never {
  process.stderr.write(`[audit] ${redactUrlsInText(message)}\n`);
  process.exit(code);
}

function verifierFor(publicKeyFile: string | undefined) {
  const config = parseConfig(process.env);
  let publicKey: string | undefined;
  try {
    publicKey = publicKeyFile ? readFileSync(publicKeyFile, 'utf8') : undefined;
  } catch {
    fail(EXIT.usage, `cannot read the public key file ${publicKeyFile}`);
  }
  const verifier = readAuditVerifier(config.dataDir, config.audit.signingKey, publicKey);
  if (!verifier)
    fail(
      EXIT.noKey,
      'no signing key: set AUDIT_SIGNING_KEY, run where DATA_DIR holds audit-signing.key, or pass --public-key',
    );
  return { config, verifier };
}

/** `--anchor <file>`, else DATA_DIR's checkpoint when there is one, else none ('none' skips it). */
function anchorFor(option: string | undefined, dataDir: string): SealAnchor | null {
  if (option === 'none') return null;
  const file = option ?? path.join(dataDir, CHECKPOINT_FILE);
  if (!option && !existsSync(file)) return null;
  try {
    return readAnchorFile(file);
  } catch {
    fail(EXIT.usage, `cannot read the anchor ${file}: a checkpoint file or a seal as the SIEM received it`);
  }
}

const readStdin = async () => {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const program = new Command('audit')
  .description("The console's audit log: verify its chain of signed seals")
  .exitOverride()
  .showHelpAfterError();

program
  .command('verify')
  .description(
    'recompute the chain from the first kept entry up to the anchor and on; exit 1 naming the first entry changed, removed or inserted',
  )
  .option(
    '--anchor <file>',
    `a seal kept outside the database (a console's DATA_DIR/${CHECKPOINT_FILE}, or the last audit.seal the SIEM received); default: DATA_DIR's checkpoint if any; none: no anchor`,
  )
  .option('--public-key <file>', 'the public key (PEM) to check the seals with, instead of the signing key')
  .option('--json', 'print the report as JSON')
  .option(
    '--resume',
    "the console's Verify: read the point verified before (JSON) on stdin, print {report, point}",
  )
  .action(async (options: { anchor?: string; publicKey?: string; json?: boolean; resume?: boolean }) => {
    const { config, verifier } = verifierFor(options.publicKey);
    const anchor = anchorFor(options.anchor, config.dataDir);
    const from = options.resume ? (JSON.parse((await readStdin()) || 'null') as VerifiedPoint | null) : null;
    const database = openConsoleDatabase(config.database);
    try {
      const verified = await verifyAuditChainFrom(database.db, verifier, { anchor, from }).catch(
        (error: unknown) =>
          fail(
            EXIT.database,
            `cannot read the audit log's tables (${describeDatabase(config.database)}): ${error instanceof Error ? error.message : String(error)}`,
          ),
      );
      const { report } = verified;
      if (options.resume) print(JSON.stringify(verified));
      else if (options.json) print(JSON.stringify(report));
      else {
        print(`[audit] ${describeDatabase(config.database)}`);
        if (!anchor)
          print('[audit] no anchor: the seals are not checked against one kept outside the database');
        print(describeChainReport(report));
      }
      process.exitCode = report.ok ? EXIT.verified : EXIT.tampered;
    } finally {
      await database.close();
    }
  });

program
  .command('public-key')
  .description('print the public key of the seals (PEM)')
  .action(() => {
    process.stdout.write(verifierFor(undefined).verifier.publicKeyPem);
  });

program
  .command('stream-off')
  .description('switch the SIEM stream off for good: its outbox (what it had yet to deliver) is dropped')
  .action(async () => {
    const config = parseConfig(process.env);
    const database = openConsoleDatabase(config.database);
    try {
      // On record before it happens, as every change is.
      const dropped = await onRecordFromCommand(
        database.db,
        realClock,
        {
          action: 'audit.stream-off',
          operator: null,
          requestId: randomUUID(),
          detail: 'npm run audit -- stream-off',
        },
        () => closeAuditStream(database.db),
        (dropped) => ({
          outcome: 'success',
          detail:
            dropped === null
              ? 'no stream was set'
              : `stream switched off, ${dropped} undelivered rows dropped`,
        }),
      );
      print(
        dropped === null ? 'No stream was set.' : `The stream is off: ${dropped} undelivered rows dropped.`,
      );
      if (config.auditStream)
        print('AUDIT_STREAM_URL is still set here: a console started with it streams again.');
    } catch (error) {
      fail(
        EXIT.database,
        `could not switch the stream off: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      await database.close();
    }
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError)
    process.exit(
      error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : EXIT.usage,
    );
  fail(
    EXIT.database,
    `could not verify the audit log: ${error instanceof Error ? error.message : String(error)}`,
  );
}
