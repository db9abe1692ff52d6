/**
 * `npm run audit -- verify [--public-key <file>] [--json]`: recomputes the audit chain on the console
 * database the environment names (DATA_DIR's SQLite file, or DATABASE_URL), and exits 1 naming the
 * first entry that was changed, removed or inserted. Reads only: it neither migrates nor makes a key.
 * `npm run audit -- public-key` prints the public key, for a verifier that should hold no more.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { parseConfig } from '@/lib/config';
import { openConsoleDatabase } from '@/lib/db/console-database';
import { describeDatabase } from '@/lib/db/describe';
import { redactUrlsInText } from '@/lib/redact-url';
import { describeChainReport } from './contract';
import { readAuditVerifier } from './signing-key';
import { verifyAuditChain } from './verify';

const print = (line: string) => process.stdout.write(`${line}\n`);

function fail(message: string): never {
  process.stderr.write(`[audit] ${redactUrlsInText(message)}\n`);
  process.exit(2);
}

function verifierFor(publicKeyFile: string | undefined) {
  const config = parseConfig(process.env);
  const verifier = readAuditVerifier(
    config.dataDir,
    config.audit.signingKey,
    publicKeyFile ? readFileSync(publicKeyFile, 'utf8') : undefined,
  );
  if (!verifier)
    fail(
      'no signing key: set AUDIT_SIGNING_KEY, run where DATA_DIR holds audit-signing.key, or pass --public-key',
    );
  return { config, verifier };
}

const program = new Command('audit')
  .description("The console's audit log: verify its chain of signed seals")
  .showHelpAfterError();

program
  .command('verify')
  .description(
    'recompute the chain from the first kept entry; exit 1 naming the first entry changed, removed or inserted',
  )
  .option('--public-key <file>', 'the public key (PEM) to check the seals with, instead of the signing key')
  .option('--json', 'print the report as JSON')
  .action(async (options: { publicKey?: string; json?: boolean }) => {
    const { config, verifier } = verifierFor(options.publicKey);
    const database = openConsoleDatabase(config.database);
    try {
      const report = await verifyAuditChain(database.db, verifier);
      if (options.json) print(JSON.stringify(report));
      else {
        print(`[audit] ${describeDatabase(config.database)}`);
        print(describeChainReport(report));
      }
      process.exitCode = report.ok ? 0 : 1;
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

try {
  await program.parseAsync(process.argv);
} catch (error) {
  fail(`could not verify the audit log: ${error instanceof Error ? error.message : String(error)}`);
}
