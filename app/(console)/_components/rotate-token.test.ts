import { describe, expect, it } from 'vitest';
import { rotateRequestSchema } from '@/lib/user-group-api/contract';
import { rotateTokenFormSchema } from './rotate-token.schema';
import { toRotateRequest } from './rotate-token.utils';

describe('rotateTokenFormSchema', () => {
  it.each([
    ['', 'Paste the current token.'],
    ['   ', 'Paste the current token.'],
    ['t'.repeat(1025), 'A token has at most 1024 characters.'],
  ])('refuses %j', (token, message) => {
    const result = rotateTokenFormSchema.safeParse({ current_token: token });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it('accepts a token with spaces around it', () => {
    expect(rotateTokenFormSchema.safeParse({ current_token: ' tok_123 ' }).success).toBe(true);
  });
});

describe('toRotateRequest', () => {
  it('trims the pasted token', () => {
    const request = toRotateRequest({ current_token: '  tok_123\t' });
    expect(request).toEqual({ current_token: 'tok_123' });
    expect(rotateRequestSchema.parse(request)).toEqual(request);
  });
});
