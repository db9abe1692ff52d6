/**
 * One row sent and its answer classified, against a scripted service: what is stored, what is tried
 * again, what pauses the job, and how a row a dead console left `sending` is settled.
 */
import { describe, expect, it } from 'vitest';
import { UpstreamError, type UserGroupApi } from '@/lib/user-group-api/client';
import type { GetOrCreateResponse, RotateResponse } from '@/lib/user-group-api/contract';
import { describeFailure, type Row, retryDelay, type SendRowOptions, sendRow } from './send-row';

function row(values: Partial<Row> = {}): Row {
  return {
    job_id: 'job-1',
    row_number: 1,
    source_line: 2,
    user_group_id: 'g-1',
    name: null,
    mapping: null,
    properties: null,
    input_token: null,
    status: 'pending',
    attempts: 1,
    error: null,
    result_token: null,
    result_fingerprint: null,
    result_name: null,
    result_team_id: null,
    result_properties: null,
    new_user_group: null,
    finished_at: null,
    directory_at: null,
    ...values,
  };
}

const group = (token: string) => ({ provided_id: 'g-1', name: 'G', team_id: 1, token });

/** A service holding one group whose token is `token`; `script` answers a call instead, once each. */
function scriptedService(token: string, script: Array<(call: 'getOrCreate' | 'rotate') => unknown> = []) {
  const calls: string[] = [];
  let current = token;
  const next = (call: 'getOrCreate' | 'rotate') => {
    calls.push(call);
    const step = script.shift();
    const thrown = step?.(call);
    if (thrown) throw thrown;
  };
  const api: UserGroupApi = {
    async getOrCreate(): Promise<GetOrCreateResponse> {
      next('getOrCreate');
      return { success: 1, new_user_group: false, user_group: { ...group(current), properties: null } };
    },
    async rotate(body): Promise<RotateResponse> {
      next('rotate');
      if (body.current_token !== current) throw new UpstreamError('not_found', 'no such token');
      current = `${current}+`;
      return { success: 1, user_group: { ...group(current), api_environment_tag: null } };
    },
    async deleteUserGroup() {
      throw new Error('not used');
    },
  };
  return { api, calls, current: () => current };
}

function send(options: Partial<SendRowOptions> & Pick<SendRowOptions, 'api'>) {
  return sendRow({
    job: { kind: 'rotate' },
    row: row(),
    inputToken: 't1',
    pace: async () => {},
    mayContinue: async () => true,
    ...options,
  });
}

const rateLimited = () =>
  new UpstreamError('rate_limited', 'slow down', { status: 429, retryAfterSeconds: 0 });

describe('sendRow', () => {
  it('rotates a token and answers the new one with the old', async () => {
    const service = scriptedService('t1');
    const result = await send({ api: () => service.api });
    expect(result).toMatchObject({
      kind: 'answered',
      outcome: { kind: 'done', group: { token: 't1+' }, previousToken: 't1', isNew: null },
    });
    expect(service.calls).toEqual(['rotate']);
  });

  it('sends nothing when the job was cancelled while the row waited for its slot', async () => {
    const service = scriptedService('t1');
    let running = true;
    const result = await send({
      api: () => service.api,
      // The job is cancelled while the row waits for the environment's pace.
      pace: async () => {
        running = false;
      },
      mayContinue: async () => running,
    });
    expect(result).toEqual({ kind: 'unsettled', status: 'pending', halt: null });
    expect(service.calls).toEqual([]);
    expect(service.current()).toBe('t1');
  });

  it('settles a rotation that may have happened by reading the group’s token, never rotating twice', async () => {
    // A dead console's rotation reached the service; its answer died with it.
    const service = scriptedService('t1');
    await service.api.rotate({ current_token: 't1' });
    const result = await send({ api: () => service.api, row: row({ status: 'sending' }) });
    expect(result).toMatchObject({
      kind: 'answered',
      outcome: {
        kind: 'done',
        group: { token: 't1+' },
        previousToken: 't1',
        note: expect.stringMatching(/read back/),
      },
    });
    expect(service.calls).toEqual(['rotate', 'getOrCreate']);
  });

  it('tries a rotation again after a 429, reading the group first in case it went through', async () => {
    const service = scriptedService('t1', [(call) => (call === 'rotate' ? rateLimited() : undefined)]);
    const result = await send({ api: () => service.api });
    expect(result).toMatchObject({ kind: 'answered', outcome: { kind: 'done', previousToken: 't1' } });
    expect(service.calls).toEqual(['rotate', 'getOrCreate', 'rotate']);
    expect(service.current()).toBe('t1+');
  });

  it('says a get-or-create sent again for a dead console’s row may be what created the group', async () => {
    const service = scriptedService('t1');
    const result = await send({
      api: () => service.api,
      job: { kind: 'get-or-create' },
      row: row({ status: 'sending' }),
    });
    expect(result).toMatchObject({
      kind: 'answered',
      outcome: { kind: 'done', isNew: false, note: expect.stringMatching(/interrupted/) },
    });
  });

  it('pauses the job for a refused key, a missing key or a client that cannot be set up, the row left pending', async () => {
    const refused = scriptedService('t1', [() => new UpstreamError('unauthorized', 'no')]);
    expect(await send({ api: () => refused.api })).toEqual({
      kind: 'unsettled',
      status: 'pending',
      halt: 'api_key_refused',
    });
    const missing = Object.assign(new Error('The Testing environment is not configured'), {
      code: 'environment_not_configured',
    });
    expect(
      await send({
        api: () => {
          throw missing;
        },
      }),
    ).toEqual({ kind: 'unsettled', status: 'pending', halt: 'environment_not_configured', cause: missing });
    const unusable = new TypeError('Invalid URL');
    expect(
      await send({
        api: () => {
          throw unusable;
        },
      }),
    ).toEqual({ kind: 'unsettled', status: 'pending', halt: 'environment_unusable', cause: unusable });
  });

  it('keeps a row that may have been done sending when the job pauses by itself, so that it is read first after resume', async () => {
    // A rotation whose first attempt may have gone through (429 here; a timeout alike), then the key was refused.
    const retried = scriptedService('t1', [
      () => rateLimited(),
      () => new UpstreamError('unauthorized', 'no'),
    ]);
    expect(await send({ api: () => retried.api })).toEqual({
      kind: 'unsettled',
      status: 'sending',
      halt: 'api_key_refused',
    });
    // A row a dead console left sending, taken over while the key is refused.
    const refused = scriptedService('t1', [() => new UpstreamError('unauthorized', 'no')]);
    expect(
      await send({ api: () => refused.api, job: { kind: 'get-or-create' }, row: row({ status: 'sending' }) }),
    ).toMatchObject({ status: 'sending', halt: 'api_key_refused' });
  });

  it('leaves a rotation sending, a get-or-create pending, when the job paused while it waited to try again', async () => {
    // Running when the first attempt went out, paused by the time the row would be tried again.
    const runningOnce = () => {
      let asked = 0;
      return async () => ++asked === 1;
    };
    const rotation = scriptedService('t1', [() => rateLimited()]);
    expect(await send({ api: () => rotation.api, mayContinue: runningOnce() })).toEqual({
      kind: 'unsettled',
      status: 'sending',
      halt: null,
    });
    const getOrCreate = scriptedService('t1', [() => rateLimited()]);
    expect(
      await send({
        api: () => getOrCreate.api,
        job: { kind: 'get-or-create' },
        mayContinue: runningOnce(),
      }),
    ).toEqual({ kind: 'unsettled', status: 'pending', halt: null });
  });

  it('stores as the row’s failure what trying again cannot help, in words for the person', async () => {
    const gone = scriptedService('other');
    expect(await send({ api: () => gone.api, row: row({ user_group_id: null }) })).toEqual({
      kind: 'answered',
      outcome: {
        kind: 'failed',
        code: 'not_found',
        message: 'No user group holds this token: it was rotated or the group deleted.',
      },
      cause: expect.any(UpstreamError),
    });
    const invalid = scriptedService('t1', [
      () => new UpstreamError('invalid_request', 'bad name', { status: 400 }),
    ]);
    // The service's words go with the cause, to the log; the person reads the console's.
    expect(await send({ api: () => invalid.api, job: { kind: 'get-or-create' } })).toMatchObject({
      kind: 'answered',
      outcome: {
        kind: 'failed',
        code: 'upstream_invalid_request',
        message: 'The User Group Service refused the input.',
      },
      cause: { message: 'bad name' },
    });
  });
});

describe('retryDelay and describeFailure', () => {
  it('honours Retry-After, backs off on timeouts and 5xx, and gives up on what will not change', () => {
    expect(retryDelay(new UpstreamError('rate_limited', '', { retryAfterSeconds: 7 }), 1)).toBe(7_000);
    const backoff = retryDelay(new UpstreamError('timeout', ''), 3) as number;
    expect(backoff).toBeGreaterThanOrEqual(1_500);
    expect(backoff).toBeLessThanOrEqual(2_500);
    expect(retryDelay(new UpstreamError('failed', '', { status: 503 }), 20)).toBeLessThanOrEqual(37_500);
    expect(retryDelay(new UpstreamError('failed', '', { status: 409 }), 1)).toBeNull();
    expect(retryDelay(new UpstreamError('not_found', ''), 1)).toBeNull();
    expect(retryDelay(new Error('bug'), 1)).toBeNull();
  });

  it('never shows a person a console error’s own words', () => {
    expect(describeFailure(new TypeError('cannot read properties of undefined'))).toEqual({
      code: 'internal',
      message: 'The console failed on this row.',
    });
    expect(describeFailure(new UpstreamError('rate_limited', 'x'))).toEqual({
      code: 'upstream_rate_limited',
      message: 'Still rate limited after several tries.',
    });
  });

  it('never shows a person the service’s own words or its address, only the fields it named', () => {
    expect(
      describeFailure(new UpstreamError('failed', 'Traceback (most recent call last)', { status: 500 })),
    ).toEqual({ code: 'upstream_failed', message: 'The User Group Service failed (HTTP 500).' });
    expect(
      describeFailure(
        new UpstreamError('invalid_request', 'name: ValueError at row 3 (pydantic)', {
          status: 400,
          fields: { name: 'ValueError at row 3 (pydantic)' },
        }),
      ),
    ).toEqual({
      code: 'upstream_invalid_request',
      message: 'The User Group Service refused the input: check name.',
    });
    for (const kind of ['unreachable', 'timeout', 'malformed'] as const) {
      const { message } = describeFailure(
        new UpstreamError(
          kind,
          'The User Group Service at http://svc.internal/api/user could not be reached.',
        ),
      );
      expect(message).toMatch(/^The User Group Service /);
      expect(message).not.toContain('svc.internal');
    }
  });
});
