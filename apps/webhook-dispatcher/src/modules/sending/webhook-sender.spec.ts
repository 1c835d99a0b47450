import { WebhookReceiver } from '@paygrid/testing';
import { RESPONSE_EXCERPT_BYTES, WebhookSender } from './webhook-sender';

/** The sender against a real HTTP server on loopback (the in-process test receiver). */
describe('WebhookSender', () => {
  let receiver: WebhookReceiver;
  const open = new WebhookSender({ timeoutMs: 2000, allowPrivate: true, maxSockets: 4 });
  const guarded = new WebhookSender({ timeoutMs: 2000, allowPrivate: false, maxSockets: 4 });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    open.close();
    guarded.close();
    await receiver.close();
  });

  it('posts the body byte for byte with the given headers and reports the status', async () => {
    const body = '{"event_name":"payout.completed","data":{"note":"héllo"}}';
    const result = await open.send(receiver.url('/ok'), body, {
      'content-type': 'application/json',
      'x-wk-timestamp': '1',
    });
    expect(result).toMatchObject({ statusCode: 200, error: null, responseExcerpt: '{"received":true}' });
    const [request] = receiver.received('/ok');
    expect(request.method).toBe('POST');
    expect(request.rawBody).toBe(body);
    expect(request.headers['x-wk-timestamp']).toBe('1');
    expect(request.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('keeps only the first 1 KiB of the response body', async () => {
    receiver.respond('/big', { status: 500, body: 'x'.repeat(100_000) });
    const result = await open.send(receiver.url('/big'), '{}', {});
    expect(result.statusCode).toBe(500);
    expect(result.responseExcerpt).toHaveLength(RESPONSE_EXCERPT_BYTES);
  });

  it('does not follow a redirect', async () => {
    receiver.respond('/moved', { status: 302, headers: { location: receiver.url('/target') } });
    const result = await open.send(receiver.url('/moved'), '{}', {});
    expect(result.statusCode).toBe(302);
    expect(receiver.received('/target')).toHaveLength(0);
  });

  it('gives up at the deadline and says so', async () => {
    receiver.respond('/slow', { status: 200, delayMs: 4000 });
    const result = await open.send(receiver.url('/slow'), '{}', {});
    expect(result).toMatchObject({ statusCode: null, error: 'timed out after 2000 ms' });
  });

  it('passes the Retry-After header on', async () => {
    receiver.respond('/busy', { status: 429, headers: { 'retry-after': '7' } });
    expect(await open.send(receiver.url('/busy'), '{}', {})).toMatchObject({
      statusCode: 429,
      retryAfter: '7',
    });
  });

  it('refuses loopback addresses when private URLs are not allowed, by literal and by name, without connecting', async () => {
    const before = receiver.received().length;
    const literal = await guarded.send(receiver.url('/private'), '{}', {});
    const named = await guarded.send(`http://localhost:${receiver.port}/private`, '{}', {});
    expect(literal).toMatchObject({ statusCode: null, error: expect.stringContaining('refused: 127.0.0.1') });
    expect(named).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/refused: (127\.0\.0\.1|::1)/),
    });
    expect(receiver.received()).toHaveLength(before);
  });

  it('reports a refused connection as a network error', async () => {
    const result = await open.send('http://127.0.0.1:1/nothing-listens', '{}', {});
    expect(result).toMatchObject({ statusCode: null, error: expect.stringContaining('ECONNREFUSED') });
  });
});
