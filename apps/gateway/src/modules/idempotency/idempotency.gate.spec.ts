import { HttpAdapterHost } from '@nestjs/core';
import type { Logger } from 'pino';
import { ApiError, PreparedAnswer } from '@paygrid/platform';
import { AuthenticatedRequest } from '../../common/authenticated-request';
import { AdmittedClaim, IdempotencyGate, idempotencyClaimOf, REPLAYED_HEADER } from './idempotency.gate';
import { Claim, IdempotencyService } from './idempotency.service';
import { RequestIdentity } from './idempotency.store';

/**
 * The gate holds a claim before the route and settles it from the answer about to be written (docs/gateway.md,
 * "Settling the record behind the answer"): the settling script is issued synchronously, and nothing waits for
 * it. The service is a stub whose settling calls resolve only when the test says so.
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

const EXECUTE: Claim = { kind: 'execute', commandId: COMMAND_ID, owner: OWNER };

function setUp(options: { settling?: Promise<void>; decided?: Claim; claimed?: Claim } = {}) {
  const settles: Settle[] = [];
  const claims: unknown[] = [];
  const settle =
    (call: Settle['call']) =>
    (...args: unknown[]) => {
      settles.push({ call, args });
      return options.settling ?? Promise.resolve();
    };
  const service = {
    decide: () => options.decided ?? EXECUTE,
    claim: async (request: unknown) => {
      claims.push(request);
      return options.claimed ?? EXECUTE;
    },
    complete: settle('complete'),
    release: settle('release'),
    forget: settle('forget'),
  } as unknown as IdempotencyService;
  const warned = barrier<unknown[]>();
  const logger = { warn: (...args: unknown[]) => warned.resolve(args) } as unknown as Logger;
  const gate = new IdempotencyGate(service, {} as HttpAdapterHost, logger);
  const request = {
    method: 'POST',
    url: '/api/v2/payment_intents/create?x=1',
    headers: { 'x-idempotency-key': KEY.toUpperCase() },
    body: { amount: 100 },
    auth: { actor: { account_id: OWNER.accountId } },
  } as unknown as AuthenticatedRequest;
  const admitted: AdmittedClaim = {
    prepared: { owner: OWNER, record: { key: KEY } as AdmittedClaim['prepared']['record'] },
    result: { kind: 'claimed' },
  };
  return { gate, settles, claims, warned: warned.promise, request, admitted };
}

describe('IdempotencyGate holds the claim before the route', () => {
  it('holds a claim the admission script made without a promise, and hands the route its command id', () => {
    const { gate, request, admitted, claims } = setUp();

    expect(gate.hold(request, admitted)).toBeUndefined();

    expect(idempotencyClaimOf(request)).toEqual({ key: KEY, commandId: COMMAND_ID, executed: false, owner: OWNER });
    expect(claims).toEqual([]);
  });

  it('claims the key itself when the claim could not ride on admission', async () => {
    const { gate, request, claims } = setUp();

    await gate.hold(request, undefined);

    expect(claims).toEqual([
      { key: KEY, accountId: OWNER.accountId, method: 'POST', path: '/api/v2/payment_intents/create', body: { amount: 100 } },
    ]);
    expect(idempotencyClaimOf(request)?.commandId).toBe(COMMAND_ID);
  });

  it('refuses a missing or malformed key before claiming anything', () => {
    const { gate, request, claims } = setUp();
    (request.headers as Record<string, string>)['x-idempotency-key'] = 'not-a-uuid';

    expect(() => gate.hold(request, undefined)).toThrow(ApiError);
    expect(claims).toEqual([]);
    expect(idempotencyClaimOf(request)).toBeUndefined();
  });

  it('answers a replay as the stored answer, byte for byte, marked replayed', () => {
    const stored = '{"payment_intent_id":"pi_1",  "intent_status":"SUCCEEDED"}';
    const { gate, request, admitted } = setUp({ decided: { kind: 'replay', status: 200, body: stored } });

    let thrown: unknown;
    try {
      gate.hold(request, admitted);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(PreparedAnswer);
    expect(thrown).toMatchObject({ status: 200, json: stored, headers: { [REPLAYED_HEADER]: 'true' } });
    expect(idempotencyClaimOf(request)).toBeUndefined();
  });
});

describe('IdempotencyGate settles the claim from the answer about to be written', () => {
  it('stores a success with its status and text, issued at once while the answer does not wait', () => {
    const pending = barrier();
    const { gate, request, admitted, settles } = setUp({ settling: pending.promise });
    gate.hold(request, admitted);
    const answer = '{"payment_intent_id":"pi_1"}';

    gate.settle(request, 200, answer);

    expect(settles).toEqual([{ call: 'complete', args: [KEY, OWNER, 200, answer] }]);
    pending.resolve();
  });

  it('stores a refusal of a sent command, releases an unknown outcome and forgets a claim under which nothing ran', () => {
    const refused = setUp();
    refused.gate.hold(refused.request, refused.admitted);
    idempotencyClaimOf(refused.request)!.executed = true; // what ServiceCalls does when it sends the command
    const refusal = '{"type":"card_error","code":"card_declined","message":"The card was declined"}';
    refused.gate.settle(refused.request, 402, refusal);
    expect(refused.settles).toEqual([{ call: 'complete', args: [KEY, OWNER, 402, refusal] }]);

    const unknown = setUp();
    unknown.gate.hold(unknown.request, unknown.admitted);
    idempotencyClaimOf(unknown.request)!.executed = true;
    unknown.gate.settle(unknown.request, 503, '{"type":"api_error"}');
    expect(unknown.settles).toEqual([{ call: 'release', args: [KEY, OWNER] }]);

    const invalid = setUp();
    invalid.gate.hold(invalid.request, invalid.admitted);
    invalid.gate.settle(invalid.request, 400, '{"type":"invalid_request_error"}');
    expect(invalid.settles).toEqual([{ call: 'forget', args: [KEY, OWNER] }]);
  });

  it('settles once, and leaves requests without a claim alone', () => {
    const { gate, request, admitted, settles } = setUp();
    gate.settle(request, 200, '{}');
    expect(settles).toEqual([]);

    gate.hold(request, admitted);
    gate.settle(request, 200, '{}');
    gate.settle(request, 500, '{}');
    expect(settles.map((settle) => settle.call)).toEqual(['complete']);
  });

  it('stores a Buffer answer as its text, and releases an answer it cannot read as text', () => {
    const buffered = setUp();
    buffered.gate.hold(buffered.request, buffered.admitted);
    buffered.gate.settle(buffered.request, 200, Buffer.from('{"ok":true}'));
    expect(buffered.settles).toEqual([{ call: 'complete', args: [KEY, OWNER, 200, '{"ok":true}'] }]);

    const streamed = setUp();
    streamed.gate.hold(streamed.request, streamed.admitted);
    streamed.gate.settle(streamed.request, 200, null);
    expect(streamed.settles).toEqual([{ call: 'release', args: [KEY, OWNER] }]);
  });

  it('keeps the answer when the settle fails, and logs the key and command id', async () => {
    const failing = barrier();
    const { gate, request, admitted, warned } = setUp({ settling: failing.promise });
    gate.hold(request, admitted);

    expect(() => gate.settle(request, 200, '{"ok":true}')).not.toThrow();
    failing.reject(new Error('redis down'));

    const [fields, message] = (await warned) as [Record<string, unknown>, string];
    expect(fields).toMatchObject({ idempotency_key: KEY, command_id: COMMAND_ID });
    expect(message).toMatch(/not settled/);
  });
});
