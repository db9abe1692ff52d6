import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readOrCreateSecretFile, readSecretFile, writeSecretFile } from './secret-file';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'secret-file-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('secret files', () => {
  it('creates a secret once, 0600 in a 0700 directory, and answers the same one after', () => {
    const dir = path.join(freshDir(), 'data');
    const file = path.join(dir, 'secret');
    const first = readOrCreateSecretFile(file, () => 'first-secret');
    expect(first).toBe('first-secret');
    expect(readOrCreateSecretFile(file, () => 'second-secret')).toBe('first-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // No temporary file is left behind.
    expect(readdirSync(dir)).toEqual(['secret']);
  });

  it('replaces a secret whole, still 0600', () => {
    const file = path.join(freshDir(), 'key.json');
    writeSecretFile(file, '{"key":"old"}');
    writeSecretFile(file, '{"key":"new"}');
    expect(readSecretFile(file)).toBe('{"key":"new"}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readSecretFile(path.join(freshDir(), 'missing'))).toBeNull();
  });
});
