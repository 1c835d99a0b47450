import { CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Logger } from 'pino';
import { defer, lastValueFrom, Observable, of, throwError } from 'rxjs';
import { ApiError, envelopeA } from '@paygrid/platform';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyService } from './idempotency.service';
import { RequestIdentity } from './idempotency.store';

/**
 * The record is settled behind the answer (docs/gateway.md, "Settling the record behind the answer"): the
 * settling script is issued before the route's answer is handed on, and the answer does not wait for it.
 * The service is a stub whose settling calls resolve only when the test says so.
 */
const KEY = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const COMMAND_ID = 'cmd_0123456789abcdef0123456789abcdef01234567';
const OWNER: RequestIdentity = {
  accountId: 'acc_1',
  method: 'POST',
  path: '/api/v2/payment_intents/create',
  requestHash: 'h',
};

interface Settle {
  call: 'complete' | 'release' | 'forget';
  args: unknown[];
}

function barrier<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setUp(settling: Promise<void>) {
  const settles: Settle[] = [];
  const settle =
    (call: Settle['call']) =>
    (...args: unknown[]) => {
      settles.push({ call, args });
      return settling;
    };
  const service = {
    decide: () => ({ kind: 'execute', commandId: COMMAND_ID, owner: OWNER }),
    complete: settle('complete'),
    release: settle('release'),
    forget: settle('forget'),
  } as unknown as IdempotencyService;
  const warned = barrier<unknown[]>();
  const logger = { warn: (...args: unknown[]) => warned.resolve(args) } as unknown as Logger;
  const interceptor = new IdempotencyInterceptor(service, new Reflector(), logger);
  const request = {
    method: 'POST',
    auth: { actor: { account_id: OWNER.accountId } },
    admittedClaim: { prepared: { owner: OWNER, record: { key: KEY } }, result: { kind: 'claimed' } },
  } as unknown as { idempotency?: { executed: boolean } };
  const context = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => ({ header: () => undefined }) }),
    getHandler: () => undefined,
    getClass: () => undefined,
  } as unknown as ExecutionContext;
  const answer = async (route: Observable<unknown>) =>
    lastValueFrom(await interceptor.intercept(context, { handle: () => route } as CallHandler));
  return { settles, warned: warned.promise, request, answer };
}

describe('IdempotencyInterceptor settles the record behind the answer', () => {
  it('answers the result while its completion is still pending, having issued the completion first', async () => {
    const pending = barrier();
    const { settles, answer } = setUp(pending.promise);
    const result = { payment_intent_id: 'pi_1', intent_status: 'SUCCEEDED' };

    await expect(answer(of(result))).resolves.toEqual(result);

    expect(settles).toEqual([{ call: 'complete', args: [KEY, OWNER, 200, JSON.stringify(result)] }]);
    pending.resolve();
  });

  it('answers a refusal of an executed command while its completion is pending, and stores the refusal', async () => {
    const pending = barrier();
    const { settles, request, answer } = setUp(pending.promise);
    const refusal = envelopeA('card_error', 'card_declined', 'The card was declined');
    const route = defer(() => {
      request.idempotency!.executed = true; // what ServiceCalls does when it sends the command
      return throwError(() => refusal);
    });

    await expect(answer(route)).rejects.toBe(refusal);

    expect(settles).toEqual([
      { call: 'complete', args: [KEY, OWNER, refusal.status, JSON.stringify(refusal.body)] },
    ]);
    pending.resolve();
  });

  it('answers an unknown outcome while the release is pending, and forgets a claim under which nothing ran', async () => {
    const pending = barrier();
    const released = setUp(pending.promise);
    const unknown = new ApiError(503, {
      type: 'api_error',
      code: 'service_unavailable',
      message: 'no reply',
    } as never);
    const executed = defer(() => {
      released.request.idempotency!.executed = true;
      return throwError(() => unknown);
    });
    await expect(released.answer(executed)).rejects.toBe(unknown);
    expect(released.settles.map((settle) => settle.call)).toEqual(['release']);

    const forgotten = setUp(pending.promise);
    await expect(forgotten.answer(throwError(() => unknown))).rejects.toBe(unknown);
    expect(forgotten.settles.map((settle) => settle.call)).toEqual(['forget']);
    pending.resolve();
  });

  it('keeps the answer when the settle fails, and logs the key and command id', async () => {
    const failing = barrier();
    const { warned, answer } = setUp(failing.promise);
    const result = { ok: true };

    await expect(answer(of(result))).resolves.toEqual(result);
    failing.reject(new Error('redis down'));

    const [fields, message] = (await warned) as [Record<string, unknown>, string];
    expect(fields).toMatchObject({ idempotency_key: KEY, command_id: COMMAND_ID });
    expect(message).toMatch(/not settled/);
  });
});
