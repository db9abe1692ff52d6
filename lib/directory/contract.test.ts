import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleApiError, callRoute } from '@/lib/browser-client/console-client';
import { consoleRoutes } from '@/lib/console-api/routes';
import type { Environment } from '@/lib/environments';
import { slugOf } from '@/lib/environments';
import { type DirectorySearch, directoryQueryString, parseDirectoryQuery } from './contract';

const parse = (query: string) => parseDirectoryQuery(new URLSearchParams(query));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('parseDirectoryQuery', () => {
  it('takes the defaults from an empty or blank query string', () => {
    const defaults = { success: true, query: { page: 1, pageSize: 25 } };
    expect(parse('')).toEqual(defaults);
    expect(parse('q=&sort=&order=&page=&pageSize=')).toEqual(defaults);
  });

  it('reads every field, the first of repeated keys', () => {
    expect(parse('q=acme&sort=name&order=asc&page=3&pageSize=8&q=other')).toEqual({
      success: true,
      query: { q: 'acme', sort: 'name', order: 'asc', page: 3, pageSize: 8 },
    });
  });

  it.each([
    ['sort=size', 'sort'],
    ['sort=UPDATED', 'sort'],
    ['order=up', 'order'],
    [`q=${'x'.repeat(201)}`, 'q'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=100001', 'page'],
    ['page=1.5', 'page'],
    ['page=two', 'page'],
    ['pageSize=0', 'pageSize'],
    ['pageSize=101', 'pageSize'],
  ])('refuses %s with a message for %s', (query, field) => {
    const result = parse(query);
    expect(result.success).toBe(false);
    if (!result.success) expect(Object.keys(result.fields)).toEqual([field]);
  });

  it.each([
    ['page=1', { page: 1 }],
    ['page=100000', { page: 100_000 }],
    [`q=${'x'.repeat(200)}`, { q: 'x'.repeat(200) }],
  ])('accepts the bound %s', (query, expected) => {
    const result = parse(query);
    expect(result.success).toBe(true);
    if (result.success) expect(result.query).toMatchObject(expected);
  });

  it('says what a person should fix', () => {
    expect(parse(`sort=size&q=${'x'.repeat(201)}&page=0&pageSize=abc`)).toEqual({
      success: false,
      fields: {
        q: 'must be at most 200 characters',
        sort: 'must be updated, id, name or created',
        page: 'must be a whole number from 1 to 100000',
        pageSize: 'must be a whole number from 1 to 100',
      },
    });
  });

  it('round-trips what the browser sends', () => {
    const search = { q: 'a&b c', sort: 'created', order: 'desc', page: 2, pageSize: 8 } as const;
    expect(parse(directoryQueryString(search).slice(1))).toEqual({ success: true, query: search });
    expect(directoryQueryString({ q: '' })).toBe('');
  });
});

/** The browser's directory search, as the command palette makes it. */
const searchDirectory = (environment: Environment, search: DirectorySearch = {}) =>
  callRoute(consoleRoutes.directorySearch, {
    params: { environment: slugOf[environment] },
    query: directoryQueryString(search),
  });

describe('the directory search route, called from the browser', () => {
  const page = { groups: [], total: 0, totalIsLowerBound: false, page: 1, pageCount: 1, pageSize: 8 };

  it('GETs the environment’s directory and parses the answer', async () => {
    const fetchMock = vi.fn(async () => Response.json(page));
    vi.stubGlobal('fetch', fetchMock);
    await expect(searchDirectory('Testing', { q: 'acme', pageSize: 8 })).resolves.toEqual(page);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/user-groups/testing?q=acme&pageSize=8',
      expect.objectContaining({ method: 'GET', cache: 'no-store' }),
    );
  });

  it('carries the console’s error message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ error: { code: 'forbidden', message: 'Your role may not…' } }, { status: 403 }),
      ),
    );
    const error = await searchDirectory('Customer').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConsoleApiError);
    expect(error).toMatchObject({ code: 'forbidden', message: 'Your role may not…' });
  });

  it('refuses an answer in another shape', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ groups: 'none' })),
    );
    await expect(searchDirectory('Customer')).rejects.toMatchObject({
      code: 'internal',
      message: 'The console answered in an unexpected shape.',
    });
  });
});
