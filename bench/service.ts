/**
 * The service under load at 32 connections, as deployed (bench/service-settings.ts), each scenario
 * against a bare node:http handler that reads the same request body and answers a body of the same
 * size as the scenario's real answer, in interleaved pairs (bench/pairs.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { createApiKey } from '../lib/user-group-service';
import { withServerCpu } from './cpu';
import { type LoadOptions, runLoad } from './load';
import { cpuCost, measurePairs, type PairedFigure } from './pairs';
import { pidsOf, startServer } from './processes';
import { rotationLoad, tokenOf } from './rotation';

export interface ServiceScenario {
  scenario: string;
  requestBytes: number;
  answerBytes: number;
  figure: PairedFigure;
}

/** Tokens ready for rotation: each connection holds one at a time, each answer puts one back. */
const ROTATION_POOL = 64;

export async function benchService(): Promise<ServiceScenario[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ugs-bench-'));
  const database = path.join(dir, 'service.sqlite');
  const { key } = await createApiKey({ database, environment: 'Customer', name: 'bench' });
  const bare = await startServer('bench/servers/bare-http.ts');
  const service = await startServer('bench/servers/user-group-service.ts', [database]);
  const headers = { authorization: `Token ${key}`, 'content-type': 'application/json' };
  const call = callService(`${service.url}/api/user`, headers);

  try {
    const existingBody = JSON.stringify({
      user_group_id: 'bench-existing',
      name: 'Bench',
      properties: { plan: 'pro' },
    });
    await call('GET', existingBody);
    // autocannon puts a fresh id in place of [<id>]; the baseline gets one of the same length.
    const createBody = (id: string) => JSON.stringify({ user_group_id: `bench-new-${id}`, name: 'Bench' });
    const rotation = rotationLoad(ROTATION_POOL, async (serial) =>
      tokenOf(await call('GET', JSON.stringify({ user_group_id: `bench-rotate-${serial}` }))),
    );
    const rotated = await rotation.rotateOnce((token) =>
      call('POST', JSON.stringify({ current_token: token })),
    );
    const scenarios: Array<{
      name: string;
      method: 'GET' | 'POST';
      body: string;
      answer: string;
      load: LoadOptions;
    }> = [
      {
        name: 'get-or-create (existing)',
        method: 'GET',
        body: existingBody,
        answer: await call('GET', existingBody),
        load: { url: `${service.url}/api/user`, method: 'GET', headers, body: existingBody },
      },
      {
        name: 'get-or-create (first-time create)',
        method: 'GET',
        body: createBody(randomUUID()),
        answer: await call('GET', createBody(randomUUID())),
        load: {
          url: `${service.url}/api/user`,
          method: 'GET',
          headers,
          body: createBody('[<id>]'),
          idReplacement: true,
        },
      },
      {
        name: 'rotate',
        method: 'POST',
        body: JSON.stringify({ current_token: tokenOf(rotated) }),
        answer: rotated,
        load: { url: `${service.url}/api/user`, method: 'POST', headers, requests: [rotation.request] },
      },
    ];

    const results: ServiceScenario[] = [];
    for (const scenario of scenarios) {
      const answerBytes = Buffer.byteLength(scenario.answer);
      const figure = await measurePairs(
        {
          baseline: withServerCpu(pidsOf(bare), (duration) =>
            runLoad(`bare node:http for ${scenario.name}`, {
              url: `${bare.url}/api/user`,
              method: scenario.method,
              headers: { ...headers, 'x-response-bytes': String(answerBytes) },
              body: scenario.body,
              duration,
            }),
          ),
          scenario: withServerCpu(pidsOf(service), (duration) =>
            rotation.checked(scenario.name, () => runLoad(scenario.name, { ...scenario.load, duration })),
          ),
        },
        cpuCost,
      );
      results.push({
        scenario: scenario.name,
        requestBytes: Buffer.byteLength(scenario.body),
        answerBytes,
        figure,
      });
    }
    return results;
  } finally {
    await Promise.all([bare.stop(), service.stop()]);
    await rm(dir, { recursive: true, force: true });
  }
}

/** One call to the service (a GET with a body, which fetch refuses to send); throws unless 200. */
function callService(url: string, headers: Record<string, string>) {
  return async (method: 'GET' | 'POST', body: string): Promise<string> => {
    const answer = await request(url, { method, headers, body });
    const text = await answer.body.text();
    if (answer.statusCode !== 200) throw new Error(`${method} ${url} answered ${answer.statusCode}: ${text}`);
    return text;
  };
}
