/**
 * Where the token encryption key comes from: the `encryptionKey` option, else env
 * SERVICE_ENCRYPTION_KEY, else (SQLite only) a key generated once next to the database file as
 * `<database>.key`, mode 0600. PostgreSQL without a key refuses to start: several instances share
 * that database and must share one key, which a file on one machine cannot give them.
 */
import { readOrCreateSecretFile } from '../secret-file';
import type { ServiceDatabase } from './database';
import { generateEncryptionKey, parseEncryptionKey, type TokenCrypto } from './token-crypto';

const ENCRYPTION_KEY_ENV = 'SERVICE_ENCRYPTION_KEY';

export function resolveEncryptionKey(database: ServiceDatabase, explicitKey?: string): Buffer {
  const given = explicitKey ?? nonEmpty(process.env[ENCRYPTION_KEY_ENV]);
  if (given !== undefined) {
    try {
      return parseEncryptionKey(given);
    } catch (error) {
      throw new Error(`${ENCRYPTION_KEY_ENV} / encryptionKey: ${(error as Error).message}`);
    }
  }
  if (database.kind === 'postgres') {
    throw new Error(
      `a PostgreSQL database needs ${ENCRYPTION_KEY_ENV} (64 hex characters or base64 of 32 bytes), ` +
        'shared by every instance; generate one with `openssl rand -hex 32`',
    );
  }
  if (database.sqliteFile === null) return generateEncryptionKey();
  return readOrCreateKeyFile(`${database.sqliteFile}.key`);
}

function readOrCreateKeyFile(keyFile: string): Buffer {
  const text = readOrCreateSecretFile(keyFile, () => generateEncryptionKey().toString('hex'));
  try {
    return parseEncryptionKey(text);
  } catch (error) {
    throw new Error(`the encryption key file ${keyFile} is invalid: ${(error as Error).message}`);
  }
}

/**
 * Records which key encrypted this database on first start, and refuses a different one later:
 * a wrong key would otherwise surface as 500s on every existing group.
 */
export async function assertKeyMatchesDatabase(
  database: ServiceDatabase,
  crypto: TokenCrypto,
): Promise<void> {
  const check = crypto.keyCheck();
  await database.db
    .insertInto('service_meta')
    .values({ name: 'token_key_check', value: check })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const stored = await database.db
    .selectFrom('service_meta')
    .select('value')
    .where('name', '=', 'token_key_check')
    .executeTakeFirst();
  if (stored?.value !== check) {
    throw new Error(
      'the encryption key does not match the one this database was created with ' +
        `(check ${ENCRYPTION_KEY_ENV} or the <database>.key file)`,
    );
  }
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value;
