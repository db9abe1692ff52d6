/**
 * The browser's part of a passkey: the options the server made go to the authenticator
 * (navigator.credentials, through @simplewebauthn/browser), and its answer comes back as JSON for
 * the server. What goes wrong on the way reaches a person in the console's words.
 */
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { ConsoleApiError } from '@/lib/browser-client/console-client';
import type { AddPasskey, PasskeyAnswer } from '@/lib/passkeys/contract';

const refused = (message: string) => new ConsoleApiError('invalid_request', message);

/** The authenticator's error (a DOMException by name, or the library's wrapper of one), in words. */
function inConsoleWords(error: unknown, ceremony: 'create' | 'use'): ConsoleApiError {
  const name = error instanceof Error ? ((error as { cause?: unknown }).cause ?? error) : error;
  const errorName = name instanceof Error ? name.name : '';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || errorName === 'InvalidStateError')
    return refused('This authenticator has a passkey for your account already.');
  if (errorName === 'SecurityError' || code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID')
    return refused(
      'This browser refuses passkeys at this address: passkeys need the console at https, or at http://localhost.',
    );
  if (errorName === 'NotAllowedError' || errorName === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return refused(
      ceremony === 'create'
        ? 'No passkey was made: it was cancelled, or took too long.'
        : 'No passkey was used: it was cancelled, or took too long.',
    );
  return refused(
    ceremony === 'create'
      ? 'The passkey could not be made. Try again.'
      : 'The passkey could not be used. Try again.',
  );
}

function requireSupport(): void {
  if (!browserSupportsWebAuthn()) throw refused('This browser cannot use passkeys.');
}

/** Makes a passkey with the server's registration options; its answer back. */
export async function createPasskey(options: Record<string, unknown>): Promise<AddPasskey['response']> {
  requireSupport();
  try {
    const answer = await startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    });
    return answer as unknown as AddPasskey['response'];
  } catch (error) {
    throw inConsoleWords(error, 'create');
  }
}

/** Signs the server's challenge with one of the person's passkeys; the answer back. */
export async function answerWithPasskey(options: Record<string, unknown>): Promise<PasskeyAnswer> {
  requireSupport();
  try {
    const answer = await startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    });
    return answer as unknown as PasskeyAnswer;
  } catch (error) {
    throw inConsoleWords(error, 'use');
  }
}
