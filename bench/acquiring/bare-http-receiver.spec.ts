import { connect } from 'node:net';
import { Pool } from 'undici';
import { BareHttpReceiver, BareRequest, parseHead, renderAnswer } from './bare-http-receiver';
import { arrivalOf } from './receiver-thread';

/** Writes `parts` to the receiver one by one (each its own TCP write) and returns everything it answered. */
function rawExchange(port: number, parts: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answered = '';
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => (answered += text));
    socket.once('error', reject);
    socket.once('close', () => resolve(answered));
    socket.once('connect', async () => {
      for (const part of parts) {
        await new Promise<void>((written) => socket.write(part, () => written()));
        // The next part goes out as a TCP write of its own, so the receiver sees the request in pieces.
        await new Promise((next) => setImmediate(next));
      }
      socket.end();
    });
  });
}

describe('the bench receiver on a bare TCP server', () => {
  let receiver: BareHttpReceiver;
  let received: BareRequest[];

  beforeEach(async () => {
    received = [];
    receiver = await BareHttpReceiver.start((request) => received.push(request));
  });
  afterEach(() => receiver.close());

  it('takes keep-alive POSTs from undici, as the dispatcher sends them, and answers each by its path', async () => {
    receiver.respond('/failing', { status: 500, body: 'down on purpose' });
    const pool = new Pool(`http://127.0.0.1:${receiver.port}`, { connections: 1 });
    try {
      const answers: Array<[number, string]> = [];
      for (const [path, id] of [
        ['/ok?x=1', 'evt_1'],
        ['/failing', 'evt_2'],
        ['/ok', 'evt_3'],
      ]) {
        const response = await pool.request({
          path,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'webhook-id': id },
          body: JSON.stringify({ event_name: 'acquiring.payment_intent.created', note: 'naïve ✓' }),
        });
        answers.push([response.statusCode, await response.body.text()]);
      }
      expect(answers).toEqual([
        [200, '{"received":true}'],
        [500, 'down on purpose'],
        [200, '{"received":true}'],
      ]);
    } finally {
      await pool.close();
    }
    expect(received.map((request) => [request.path, request.webhookId])).toEqual([
      ['/ok', 'evt_1'],
      ['/failing', 'evt_2'],
      ['/ok', 'evt_3'],
    ]);
    // The body is read whole and as UTF-8, multi-byte characters included.
    expect(JSON.parse(received[0].body)).toEqual({
      event_name: 'acquiring.payment_intent.created',
      note: 'naïve ✓',
    });
  });

  it('reads a request that arrives in pieces, and two requests that arrive in one write', async () => {
    const body = '{"a":1}';
    const request = (id: string) =>
      `POST /ok HTTP/1.1\r\nHost: x\r\nWebhook-Id: ${id}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const whole = request('evt_piece');
    const answered = await rawExchange(receiver.port, [
      whole.slice(0, 10),
      whole.slice(10, whole.indexOf('\r\n\r\n') + 2),
      whole.slice(whole.indexOf('\r\n\r\n') + 2, whole.length - 3),
      whole.slice(whole.length - 3) + request('evt_a') + request('evt_b'),
    ]);
    expect(received.map((r) => [r.webhookId, r.body])).toEqual([
      ['evt_piece', body],
      ['evt_a', body],
      ['evt_b', body],
    ]);
    expect(answered.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(3);
  });

  it('refuses what it does not read with a clear answer, records nothing, and closes the connection', async () => {
    const chunked = await rawExchange(receiver.port, [
      'POST /ok HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n0\r\n\r\n',
    ]);
    expect(chunked).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n[^]*connection: close\r\n/);
    const garbage = await rawExchange(receiver.port, ['HELLO THERE\r\n\r\n']);
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const hugeHead = await rawExchange(receiver.port, [`POST /ok HTTP/1.1\r\nX-Pad: ${'p'.repeat(20_000)}`]);
    expect(hugeHead).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(received).toEqual([]);
  });

  it('does not count a request whose sender went away before the end of its body', async () => {
    const answered = await rawExchange(receiver.port, [
      'POST /ok HTTP/1.1\r\nContent-Length: 100\r\n\r\n{"cut":',
    ]);
    expect(answered).toBe('');
    expect(received).toEqual([]);
  });
});

describe('a request head', () => {
  it('gives the path without its query, the body length, the webhook id and whether the connection stays', () => {
    expect(parseHead('POST /ok?q=1 HTTP/1.1\r\nCONTENT-LENGTH: 12\r\nwebhook-id:  evt_9 ')).toEqual({
      ok: true,
      path: '/ok',
      contentLength: 12,
      webhookId: 'evt_9',
      keepAlive: true,
    });
    expect(parseHead('POST / HTTP/1.1\r\nConnection: Close')).toMatchObject({ ok: true, keepAlive: false });
    expect(parseHead('POST / HTTP/1.0')).toMatchObject({ ok: true, keepAlive: false, contentLength: 0 });
  });

  it('is refused when its request line, a header line or its length cannot be read', () => {
    for (const head of [
      'POST /ok',
      'POST /ok HTTP/2.0',
      'POST /ok HTTP/1.1\r\nno colon',
      'POST / HTTP/1.1\r\nContent-Length: -1',
    ])
      expect(parseHead(head)).toEqual({ ok: false, status: 400 });
    expect(parseHead('POST / HTTP/1.1\r\ntransfer-encoding: chunked')).toEqual({ ok: false, status: 501 });
    expect(parseHead('POST / HTTP/1.1\r\ncontent-length: 1048577')).toEqual({ ok: false, status: 413 });
    expect(parseHead('POST / HTTP/1.1\r\ncontent-length: 1048576')).toMatchObject({
      ok: true,
      contentLength: 1048576,
    });
  });
});

describe('an answer', () => {
  it('is a whole HTTP/1.1 response whose length counts bytes, not characters', () => {
    expect(renderAnswer({ status: 200, body: 'é' }).toString('utf8')).toBe(
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\né',
    );
  });
});

describe("an arrival's stamp", () => {
  const request = (body: string): BareRequest => ({
    path: '/ok',
    webhookId: 'evt_1',
    body,
    receivedAt: 1_000,
  });

  it("takes the event's time and name from the body, and its id from the header", () => {
    const body = JSON.stringify({ event_name: 'x.created', create_time: '2026-12-03T10:00:00.000Z' });
    expect(arrivalOf(request(body))).toEqual({
      path: '/ok',
      at: 1_000,
      createdAt: Date.parse('2026-12-03T10:00:00.000Z'),
      eventName: 'x.created',
      eventId: 'evt_1',
    });
  });

  it('still counts a body that is not an event', () => {
    for (const body of ['not json', 'null', '42', '{"create_time":5}'])
      expect(arrivalOf(request(body))).toMatchObject({ at: 1_000, createdAt: NaN, eventName: '' });
  });
});
