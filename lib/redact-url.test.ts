/** Credentials never leave in what the service prints: the redaction itself, case by case. */
import { describe, expect, it } from 'vitest';
import { redactUrlCredentials, redactUrlsInText } from './redact-url';

describe('redactUrlCredentials', () => {
  const cases: Array<[string, string, string]> = [
    [
      'user and password',
      'postgres://someuser:s3cret@db.example:5432/app',
      'postgres://***@db.example:5432/app',
    ],
    ['postgresql scheme, upper case', 'POSTGRESQL://u:p@h/db', 'POSTGRESQL://***@h/db'],
    ['user only', 'postgres://someuser@127.0.0.1/test', 'postgres://***@127.0.0.1/test'],
    ['empty password', 'postgres://someuser:@127.0.0.1/test', 'postgres://***@127.0.0.1/test'],
    ['percent-encoded password', 'postgres://u:p%40ss%2Fw@h:5432/db', 'postgres://***@h:5432/db'],
    ['unencoded @ in the password', 'postgres://u:p@ss@h/db', 'postgres://***@h/db'],
    ['unencoded / and ? in the password', 'postgres://u:a/b?c@h/db', 'postgres://***@h/db'],
    ['IPv6 host', 'postgres://u:p@[::1]:5432/db', 'postgres://***@[::1]:5432/db'],
    [
      'password parameter',
      'postgres://h/db?sslmode=require&password=s3cret',
      'postgres://h/db?sslmode=require&password=***',
    ],
    [
      'sslpassword parameter',
      'postgres://h/db?sslpassword=s3cret&x=1',
      'postgres://h/db?sslpassword=***&x=1',
    ],
    ['no credentials', 'postgres://127.0.0.1:5432/test', 'postgres://127.0.0.1:5432/test'],
    ['other schemes too', 'https://user:pw@example.com/x', 'https://***@example.com/x'],
    ['relative file path', './data/user-group-service.sqlite', './data/user-group-service.sqlite'],
    ['absolute path with @ and :', '/srv/a:b@c/service.sqlite', '/srv/a:b@c/service.sqlite'],
    ['in-memory', ':memory:', ':memory:'],
    ['empty', '', ''],
  ];
  it.each(cases)('%s', (_, input, expected) => {
    expect(redactUrlCredentials(input)).toBe(expected);
  });
});

describe('redactUrlsInText', () => {
  it('redacts every URL in a message and leaves the rest', () => {
    expect(
      redactUrlsInText('could not reach postgres://u:s3cret@h/db (tried postgresql://v:pw@h2/db): refused'),
    ).toBe('could not reach postgres://***@h/db (tried postgresql://***@h2/db): refused');
    expect(redactUrlsInText('role "someuser" does not exist')).toBe('role "someuser" does not exist');
  });
});
