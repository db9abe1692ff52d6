/**
 * For tests of what a client hears when a server answers before reading its whole body (413): the
 * body sent with Node's http client, which reports EPIPE or ECONNRESET when the server closes with
 * unread bytes, or with undici, as the service's tests and the console's upstream client do.
 */
import { Agent, request as httpRequest } from 'node:http';
import { request as undiciRequest } from 'undici';

export interface ClientOutcome {
  status: number | null;
  text: string;
  /** The error the client reported, even after the answer: `EPIPE`, `ECONNRESET`. */
  error: string | null;
}

export interface BodyOptions {
  method: 'GET' | 'POST';
  body: Buffer;
  headers?: Record<string, string>;
  /** Sent as chunks of Transfer-Encoding: chunked instead of with a Content-Length. */
  chunked?: boolean;
  /** A keep-alive agent (Connection: keep-alive) instead of none (Connection: close). */
  keepAlive?: boolean;
}

export function sendWithNodeHttp(url: string, options: BodyOptions): Promise<ClientOutcome> {
  const outcome: ClientOutcome = { status: null, text: '', error: null };
  const agent = options.keepAlive ? new Agent({ keepAlive: true }) : false;
  const headers: Record<string, string | number> = { ...options.headers };
  if (options.chunked) headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = options.body.length;
  return new Promise((resolve) => {
    const request = httpRequest(url, { method: options.method, headers, agent }, (response) => {
      outcome.status = response.statusCode ?? null;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        outcome.text += chunk;
      });
      response.on('error', () => {});
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      outcome.error ??= error.code ?? error.message;
    });
    // An error can follow the answer: wait a moment after the request closed.
    request.on('close', () => {
      setTimeout(() => {
        if (agent) agent.destroy();
        resolve(outcome);
      }, 50);
    });
    if (options.chunked) {
      for (let offset = 0; offset < options.body.length; offset += 64 * 1024) {
        request.write(options.body.subarray(offset, offset + 64 * 1024));
      }
      request.end();
    } else {
      request.end(options.body);
    }
  });
}

export async function sendWithUndici(url: string, options: BodyOptions): Promise<ClientOutcome> {
  try {
    const answer = await undiciRequest(url, {
      method: options.method,
      headers: options.headers,
      body: options.body,
    });
    return { status: answer.statusCode, text: await answer.body.text(), error: null };
  } catch (error) {
    return { status: null, text: '', error: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}
