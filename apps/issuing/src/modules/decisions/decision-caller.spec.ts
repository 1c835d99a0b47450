import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Resolver, UrlRefusedError } from '@paygrid/platform';
import { WebhookReceiver } from '@paygrid/testing';
import { ANSWER_MAX_BYTES, DecisionCaller, DecisionCallerOptions } from './decision-caller';

/** A host whose DNS answer changes after its first lookup: what DNS rebinding does between registration and call. */
function rebinding(first: string, then: string): Resolver {
  let lookups = 0;
  return async () => [lookups++ === 0 ? first : then];
}

describe('the decision caller (outbound guard)', () => {
  let receiver: WebhookReceiver;
  const callers: DecisionCaller[] = [];
  const callerWith = (options: DecisionCallerOptions) => {
    const caller = new DecisionCaller(options);
    callers.push(caller);
    return caller;
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(() => receiver.clear());
  afterAll(async () => {
    for (const caller of callers) caller.onApplicationShutdown();
    await receiver?.close();
  });

  it('accepts a host that resolves publicly when set, and never connects once it resolves to loopback', async () => {
    // The receiver listens on 127.0.0.1 at this port: a call that got past the guard would arrive there.
    const caller = callerWith({ allowPrivate: false, resolve: rebinding('93.184.215.14', '127.0.0.1') });
    const url = `http://decisions.merchant.test:${receiver.port}/decide`;
    await expect(caller.checkUrl(url)).resolves.toBeUndefined();
    expect(await caller.post(url, '{}', {}, 2000)).toEqual({
      kind: 'refused',
      why: 'refused: 127.0.0.1 is a loopback, private, link-local or reserved address',
    });
    expect(receiver.received()).toHaveLength(0);
  });

  it('refuses loopback, metadata, unique-local and non-http URLs when they are set, and a loopback literal when called', async () => {
    const caller = callerWith({ allowPrivate: false, resolve: async () => ['127.0.0.1'] });
    await expect(caller.checkUrl(receiver.url('/decide'))).rejects.toThrow(UrlRefusedError);
    await expect(caller.checkUrl('http://169.254.169.254/latest/meta-data')).rejects.toThrow('169.254.169.254');
    await expect(caller.checkUrl('https://[fd00:ec2::254]/decide')).rejects.toThrow('fd00:ec2::254');
    await expect(caller.checkUrl('https://decisions.merchant.test/')).rejects.toThrow('resolves to 127.0.0.1');
    await expect(caller.checkUrl('ftp://decisions.merchant.test/')).rejects.toThrow('url must use https or http');
    await expect(caller.checkUrl(`https://decisions.merchant.test/${'a'.repeat(2048)}`)).rejects.toThrow('at most 2048');
    expect(await caller.post(receiver.url('/decide'), '{}', {}, 2000)).toMatchObject({ kind: 'refused' });
    expect(receiver.received()).toHaveLength(0);
  });

  it('calls a loopback receiver when private URLs are allowed, and hands back its status and body', async () => {
    receiver.respond('/decide', { status: 200, body: '{"response_code":"00"}' });
    const caller = callerWith({ allowPrivate: true });
    expect(await caller.post(receiver.url('/decide'), '{"a":1}', { 'x-auth-timestamp': '1' }, 2000)).toEqual({
      kind: 'answered',
      status: 200,
      body: '{"response_code":"00"}',
    });
    expect(receiver.received('/decide')).toEqual([
      expect.objectContaining({ rawBody: '{"a":1}', headers: expect.objectContaining({ 'x-auth-timestamp': '1' }) }),
    ]);
  });

  it('gives up on an answer that is late or too large, and does not follow a redirect', async () => {
    const caller = callerWith({ allowPrivate: true });
    // Never answers (no timer of its own left behind, unlike a delayed answer).
    const silent = createServer(() => undefined).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const { port } = silent.address() as AddressInfo;
      expect(await caller.post(`http://127.0.0.1:${port}/decide`, '{}', {}, 200)).toEqual({ kind: 'failed', why: 'no answer within 200 ms' });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
    receiver.respond('/large', { status: 200, body: 'x'.repeat(ANSWER_MAX_BYTES + 1) });
    expect(await caller.post(receiver.url('/large'), '{}', {}, 2000)).toEqual({ kind: 'failed', why: 'the answer is too large' });
    receiver.respond('/moved', { status: 302, headers: { location: receiver.url('/decide') }, body: '' });
    expect(await caller.post(receiver.url('/moved'), '{}', {}, 2000)).toEqual({ kind: 'answered', status: 302, body: '' });
    expect(receiver.received('/decide')).toHaveLength(0);
  });
});
