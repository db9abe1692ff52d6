import { describe, expect, it } from 'vitest';
import { listenAddress, parseConfig } from './index';

describe('listenAddress', () => {
  it('stays on loopback unless asked', () => {
    expect(listenAddress(undefined, undefined, 'build-box')).toBe('127.0.0.1');
  });

  it('honours HOSTNAME, and CONSOLE_HOSTNAME over it', () => {
    expect(listenAddress(undefined, '0.0.0.0', 'build-box')).toBe('0.0.0.0');
    expect(listenAddress('10.0.0.5', '0.0.0.0', 'build-box')).toBe('10.0.0.5');
  });

  it("ignores a HOSTNAME that is only the machine's name (Docker sets it to the container id)", () => {
    expect(listenAddress(undefined, '3f2a9c1b7d4e', '3f2a9c1b7d4e')).toBe('127.0.0.1');
    expect(listenAddress('0.0.0.0', '3f2a9c1b7d4e', '3f2a9c1b7d4e')).toBe('0.0.0.0');
  });
});

describe('parseConfig', () => {
  it('reads the listen address from the environment', () => {
    expect(parseConfig({ CONSOLE_HOSTNAME: '0.0.0.0' }).hostname).toBe('0.0.0.0');
    expect(parseConfig({}).hostname).toBe('127.0.0.1');
  });
});
