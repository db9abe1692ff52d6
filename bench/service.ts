/**
 * The service under load at 32 connections, each scenario next to the bare node:http baseline
 * measured right before it with the same request and a same-sized answer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createUserGroupApi } from '../lib/user-group-api/client';
import { createApiKey } from '../lib/user-group-service';
import { type LoadResult, runLoad } from './load';
import { startServer } from './processes';

export interface ServiceScenario {
  scenario: string;
  service: LoadResult;
  baseline: LoadResult;
  ratio: number;
}

const seconds = Number(process.env.BENCH_SECONDS ?? 5);

export async function benchService(): Promise<ServiceScenario[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ugs-bench-'));
  const database = path.join(dir, 'service.sqlite');
  const { key } = await createApiKey({ database, environment: 'Customer', name: 'bench' });
  const baseline = await startServer('bench/servers/bare-http.ts');
  const service = await startServer('bench/servers/user-group-service.ts', [database]);
  const headers = { authorization: `Token ${key}`, 'content-type': 'application/json' };
  const api = createUserGroupApi({ baseUrl: service.url, apiKey: key });

  try {
    const existingBody = JSON.stringify({
      user_group_id: 'bench-existing',
      name: 'Bench',
      properties: { plan: 'pro' },
    });
    const existing = await api.getOrCreate(JSON.parse(existingBody));

    // Rotation needs a current token per request: a pool that each answer refills.
    const tokens: string[] = [];
    for (let i = 0; i < 64; i++)
      tokens.push((await api.getOrCreate({ user_group_id: `bench-rotate-${i}` })).user_group.token);

    const scenarios: Array<{ name: string; answerBytes: number; options: Parameters<typeof runLoad>[0] }> = [
      {
        name: 'get-or-create (existing)',
        answerBytes: JSON.stringify(existing).length,
        options: { url: `${service.url}/api/user`, method: 'GET', headers, body: existingBody },
      },
      {
        name: 'get-or-create (first-time create)',
        answerBytes: JSON.stringify({ ...existing, new_user_group: true }).length,
        options: {
          url: `${service.url}/api/user`,
          method: 'GET',
          headers,
          body: JSON.stringify({ user_group_id: 'bench-new-[<id>]', name: 'Bench' }),
          idReplacement: true,
        },
      },
      {
        name: 'rotate',
        answerBytes: 200,
        options: {
          url: `${service.url}/api/user`,
          method: 'POST',
          headers,
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                body: JSON.stringify({ current_token: tokens.shift() }),
              }),
              onResponse: (status, body) => {
                if (status === 200)
                  tokens.push((JSON.parse(body) as { user_group: { token: string } }).user_group.token);
              },
            },
          ],
        },
      },
    ];

    const results: ServiceScenario[] = [];
    for (const { name, answerBytes, options } of scenarios) {
      const bare = await runLoad({
        url: `${baseline.url}/api/user`,
        method: options.method,
        headers: { ...headers, 'x-response-bytes': String(answerBytes) },
        body: existingBody,
        duration: seconds,
      });
      const measured = await runLoad({ ...options, duration: seconds });
      results.push({
        scenario: name,
        service: measured,
        baseline: bare,
        ratio: round(measured.requestsPerSecond / bare.requestsPerSecond),
      });
    }
    return results;
  } finally {
    await Promise.all([baseline.stop(), service.stop()]);
    await rm(dir, { recursive: true, force: true });
  }
}

export const round = (value: number) => Math.round(value * 100) / 100;
