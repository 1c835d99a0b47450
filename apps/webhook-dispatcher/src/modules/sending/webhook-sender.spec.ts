import { once } from 'node:events';
import { createServer, RequestListener } from 'node:http';
import { AddressInfo, createServer as createTcpServer, Server, Socket } from 'node:net';
import { WebhookReceiver } from '@paygrid/testing';
import { RESPONSE_EXCERPT_BYTES, WebhookSender } from './webhook-sender';

/** A loopback server that records its connections, to see them reused, counted or closed by the sender. */
async function serve(server: Server) {
  const sockets: Socket[] = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const close = () => {
    for (const socket of sockets) socket.destroy();
    server.close();
  };
  return { port, sockets, close };
}

/** An HTTP server answering with `handler`. */
const httpServer = (handler: RequestListener) => serve(createServer(handler));

/** Resolves when the server side of a connection has closed (the test times out if the sender leaks it). */
const closed = (socket: Socket) =>
  new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));

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

  it('checks the address of an https URL at connect time too (the lookup reaches tls.connect)', async () => {
    // Without the guarded lookup this would connect and fail the TLS handshake with the plain-HTTP receiver.
    const named = await guarded.send(`https://localhost:${receiver.port}/private`, '{}', {});
    expect(named).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/^refused: (127\.0\.0\.1|::1) /),
    });
  });

  it('sends the credentials of a URL with userinfo as Basic authorization, as node:http did', async () => {
    await open.send(`http://merchant:s%40cret@127.0.0.1:${receiver.port}/basic`, '{}', {});
    const [request] = receiver.received('/basic');
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('merchant:s@cret').toString('base64')}`);
  });

  it('reports a refused connection as a network error', async () => {
    const result = await open.send('http://127.0.0.1:1/nothing-listens', '{}', {});
    expect(result).toMatchObject({ statusCode: null, error: expect.stringContaining('ECONNREFUSED') });
  });

  describe('connections', () => {
    const servers: { close: () => void }[] = [];
    const senders: WebhookSender[] = [];
    const sender = (timeoutMs: number, maxSockets = 4) => {
      const made = new WebhookSender({ timeoutMs, allowPrivate: true, maxSockets });
      senders.push(made);
      return made;
    };
    const track = <S extends { close: () => void }>(server: S): S => {
      servers.push(server);
      return server;
    };
    afterEach(() => {
      senders.splice(0).forEach((each) => each.close());
      servers.splice(0).forEach((server) => server.close());
    });

    it('keeps connections alive across sends, at most maxSockets per origin', async () => {
      const server = track(
        await httpServer((request, response) => request.resume().on('end', () => response.end('ok'))),
      );
      const url = `http://127.0.0.1:${server.port}/hook`;
      const two = sender(2000, 2);
      for (let i = 0; i < 5; i += 1) expect((await two.send(url, '{}', {})).statusCode).toBe(200);
      const results = await Promise.all(Array.from({ length: 6 }, () => two.send(url, '{}', {})));
      expect(results.map((result) => result.statusCode)).toEqual(Array(6).fill(200));
      // 11 sends over at most 2 connections: reused, and never more than maxSockets at once.
      expect(server.sockets.length).toBeLessThanOrEqual(2);
    });

    it('reports a connection closed without an answer in undici\'s words (node:http said "socket hang up")', async () => {
      const server = track(
        await httpServer((request) => request.resume().on('end', () => request.socket.end())),
      );
      expect(await sender(2000).send(`http://127.0.0.1:${server.port}/hangs-up`, '{}', {})).toMatchObject({
        statusCode: null,
        error: 'UND_ERR_SOCKET: other side closed',
      });
    });

    it('stops reading an endless body after the first 1 KiB and closes that connection', async () => {
      // Streams for as long as the client reads: only the sender giving up ends the exchange.
      const server = track(
        await httpServer((request, response) => {
          request.resume();
          response.writeHead(200);
          const more = () => {
            while (!response.destroyed && response.write('y'.repeat(16 * 1024)));
          };
          response.on('drain', more);
          more();
        }),
      );
      // A deadline far beyond the test's own timeout: the result cannot come from the deadline.
      const result = await sender(60_000).send(`http://127.0.0.1:${server.port}/endless`, '{}', {});
      expect(result).toMatchObject({
        statusCode: 200,
        error: null,
        responseExcerpt: 'y'.repeat(RESPONSE_EXCERPT_BYTES),
      });
      await closed(server.sockets[0]);
    }, 10_000);

    it('keeps the status, the first Retry-After and what arrived when the deadline passes mid-body, and closes the connection', async () => {
      const server = track(
        await httpServer((request, response) => {
          request.resume();
          response.setHeader('retry-after', ['3', '9']);
          response.writeHead(200);
          response.write('partial\u0000'); // and never ends
        }),
      );
      const result = await sender(1000).send(`http://127.0.0.1:${server.port}/stalls`, '{}', {});
      expect(result).toMatchObject({
        statusCode: 200,
        error: null,
        responseExcerpt: 'partial',
        retryAfter: '3',
      });
      await closed(server.sockets[0]);
    });

    it('gives up at the deadline before any answer, closes the connection, and the next send still goes out', async () => {
      let answer = false;
      const server = track(
        await httpServer((request, response) => {
          request.resume();
          if (answer) response.end('late but fine');
        }),
      );
      const timed = sender(200);
      const url = `http://127.0.0.1:${server.port}/silent`;
      expect(await timed.send(url, '{}', {})).toMatchObject({
        statusCode: null,
        error: 'timed out after 200 ms',
      });
      await closed(server.sockets[0]);
      answer = true;
      expect(await timed.send(url, '{}', {})).toMatchObject({
        statusCode: 200,
        responseExcerpt: 'late but fine',
      });
    });

    it('gives up at the deadline while the TLS handshake hangs, and drops that connection', async () => {
      // Accepts the TCP connection and never answers the ClientHello: undici is still connecting, so the
      // deadline must not wait for undici, and the connect timeout must close the socket.
      const server = track(await serve(createTcpServer((socket) => socket.resume())));
      const result = await sender(300).send(`https://127.0.0.1:${server.port}/handshake`, '{}', {});
      expect(result).toMatchObject({ statusCode: null, error: 'timed out after 300 ms' });
      await closed(server.sockets[0]);
    }, 5_000);
  });
});
