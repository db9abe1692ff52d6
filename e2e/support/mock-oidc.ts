/**
 * The e2e run's OpenID Connect provider (lib/testing/mock-oidc.ts) as a process:
 *
 *   node --import tsx e2e/support/mock-oidc.ts   (port from MOCK_OIDC_PORT)
 */
import { startMockOidc } from '../../lib/testing/mock-oidc';
import { mockOidc } from './oidc-settings';

const provider = await startMockOidc(mockOidc);
process.stdout.write(`mock OIDC provider on ${provider.issuer}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void provider.close().then(() => process.exit(0)));
