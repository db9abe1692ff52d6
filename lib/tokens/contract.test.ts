import { describe, expect, it } from 'vitest';
import { identifyTokenSchema, looksLikeToken, notATokenReason } from './contract';

describe('looksLikeToken', () => {
  it.each([
    ['a 64-hex token of the built-in service', 'a3f1'.repeat(16)],
    ['a base64url secret', 'dGhpcy1pcy1hLXNlY3JldC10b2tlbi12YWx1ZTEyMzQ1Ng'],
    ['with spaces around', `  ${'0f'.repeat(20)}  `],
    ['a 32-hex value', 'deadbeef'.repeat(4)],
  ])('takes %s as a token', (_, text) => {
    expect(looksLikeToken(text)).toBe(true);
  });

  it.each([
    ['a short id', 'acme-corp'],
    ['a UUID id', '3f2b8c1e-9a4d-4e7f-8b1a-2c3d4e5f6a7b'],
    ['an id of words and numbers', 'acme-corp-production-eu-west-1-analytics'],
    ['a search with a space', 'acme corp 2026 analytics production team'],
    ['letters only', 'abcdefghijklmnopqrstuvwxyzabcdefghij'],
    ['empty', ''],
  ])('takes %s as no token', (_, text) => {
    expect(looksLikeToken(text)).toBe(false);
  });
});

describe('notATokenReason', () => {
  it('refuses text with spaces in it (a chat message pasted whole), and takes one unbroken string', () => {
    expect(notATokenReason('hi, can you check token 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c?')).toMatch(
      /^is not a token/,
    );
    expect(notATokenReason('9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c\nthanks')).toMatch(/^is not a token/);
    expect(
      notATokenReason('  9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c \n'),
    ).toBeNull();
    expect(notATokenReason('acme-corp')).toBeNull();
  });

  it('is the identify route’s check as well', () => {
    const parsed = identifyTokenSchema.safeParse({ token: 'the token is abc123' });
    expect(parsed.success).toBe(false);
    expect(identifyTokenSchema.safeParse({ token: ' abc123def456 ' }).success).toBe(true);
  });
});
