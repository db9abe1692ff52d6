/**
 * What the scale bench asks each console, as a person would: the audit log's JSON route and page,
 * its export, the directory's route and Identify, over the rows bench/scale-load.ts generates
 * (entries from 2025-11-27, 28,800 a day; so every date below is inside the smallest size allowed,
 * 100,000 entries, which reach 2025-11-30T11:20Z). Each request says how its answer's rows are
 * counted and whether it must hold some (every figure but the no-match search) or none.
 */
import { request } from 'undici';
import type { BenchConsole } from './console-server';
import { csvRows, type Expectation, htmlTableRows, jsonRows, SCALE_GOALS } from './scale-figures';
import { OLD_WORD, PLANTED_TOKEN } from './scale-load';

export interface ScaleRequest {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  rows: (text: string) => number;
  expect: Expectation;
  goalP95Ms: number | null;
  /** May be one of the four run at once while health and sign-in are timed (Identify is rate-limited). */
  mayLoop: boolean;
}

/** Per console: where its 50th page starts, and an id in the middle of the from–to range. */
export interface Cursors {
  page50Before: number;
  deepInRangeBefore: number;
}

/** The smallest audit size whose dates cover every figure's. */
export const MIN_AUDIT_ROWS = 100_000;
/** Identify answers 30 look-ups per operator and minute (lib/limits.ts): at most this many rounds. */
export const IDENTIFY_MAX_ROUNDS = 25;
export const RANGE = { from: '2025-11-27T12:00', to: '2025-11-29', middle: '2025-11-28T12:00:00.000Z' };
/** The export whose memory is watched: three days with the reads, 86,400 rows at every size. */
export const MEMORY_EXPORT = '/api/audit/export?reads=include&from=2025-11-27&to=2025-11-29';

const audit = jsonRows('events');
const directory = jsonRows('groups');
const json = SCALE_GOALS.jsonP95Ms;

export function scaleRequests(cursors: Cursors): ScaleRequest[] {
  const get = (
    name: string,
    path: string,
    rows: (text: string) => number,
    goalP95Ms: number | null = json,
    expect: Expectation = 'rows',
  ): ScaleRequest => ({ name, method: 'GET', path, rows, expect, goalP95Ms, mayLoop: true });
  return [
    get('/audit page (HTML), unfiltered', '/audit', htmlTableRows, SCALE_GOALS.pageP95Ms),
    get('audit, unfiltered', '/api/audit', audit),
    get('audit, by person (person7)', '/api/audit?operator=person7', audit),
    get('audit, by action (rotate)', '/api/audit?action=rotate', audit),
    get('audit, with reads', '/api/audit?reads=include', audit),
    get('audit, one day', '/api/audit?from=2025-11-28&to=2025-11-28', audit),
    get('audit, 50th page', `/api/audit?before=${cursors.page50Before}`, audit),
    get(
      'audit, a page deep in a from–to range',
      `/api/audit?from=${RANGE.from}&to=${RANGE.to}&before=${cursors.deepInRangeBefore}`,
      audit,
    ),
    get(
      'export, from and to (2 h)',
      '/api/audit/export?from=2025-11-28T06:00&to=2025-11-28T07:59',
      csvRows,
      null,
    ),
    get('directory, list', '/api/user-groups/customer', directory),
    get('directory, list by id', '/api/user-groups/customer?sort=id', directory),
    get('directory, many matches (wonka)', '/api/user-groups/customer?q=wonka', directory),
    get(
      'directory, many matches all old (heritage)',
      `/api/user-groups/customer?q=${OLD_WORD.toLowerCase()}`,
      directory,
    ),
    get('directory, two letters (ty)', '/api/user-groups/customer?q=ty', directory),
    get('directory, no match (qz)', '/api/user-groups/customer?q=qz', directory, json, 'none'),
    get('directory, part of an id (acme-4242)', '/api/user-groups/customer?q=acme-4242', directory),
    {
      name: 'identify a token',
      method: 'POST',
      path: '/api/tokens/identify',
      body: JSON.stringify({ token: PLANTED_TOKEN }),
      rows: jsonRows('matches'),
      expect: 'rows',
      goalP95Ms: json,
      mayLoop: false,
    },
  ];
}

/**
 * One request through the console as a signed-in admin: its time to the answer's last byte, and
 * its rows; an answer other than 200 is what the person met too: its status and error come back
 * with the time (the figure counts it, and the bench fails at its end).
 */
export async function timeRequest(
  target: BenchConsole,
  ask: ScaleRequest,
): Promise<{ ms: number; rows: number; failure?: string }> {
  const headers: Record<string, string> = { cookie: target.cookie };
  if (ask.method === 'POST')
    Object.assign(headers, { origin: target.origin, 'content-type': 'application/json' });
  const start = performance.now();
  const answer = await request(`${target.base}${ask.path}`, { method: ask.method, headers, body: ask.body });
  const text = await answer.body.text();
  const ms = performance.now() - start;
  if (answer.statusCode !== 200) return { ms, rows: 0, failure: `${answer.statusCode} ${errorCode(text)}` };
  return { ms, rows: ask.rows(text) };
}

/** The console's error code (its documented error shape), or the body's start. */
function errorCode(text: string): string {
  try {
    return (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? text.slice(0, 80);
  } catch {
    return text.slice(0, 80);
  }
}

/** The `before` of the 50th page of the unfiltered log, walked page by page as a person would. */
export async function page50Cursor(target: BenchConsole): Promise<number> {
  let before: number | null = null;
  for (let page = 1; page < 50; page++) {
    const answer = await request(`${target.base}/api/audit${before ? `?before=${before}` : ''}`, {
      headers: { cookie: target.cookie },
    });
    const body = (await answer.body.json()) as { nextBefore: number | null };
    if (answer.statusCode !== 200 || !body.nextBefore)
      throw new Error(`the audit log has no page ${page + 1}`);
    before = body.nextBefore;
  }
  if (!before) throw new Error('no 50th page');
  return before;
}
