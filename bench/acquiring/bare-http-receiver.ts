import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';

/**
 * The create bench's webhook endpoints: just enough HTTP/1.1 on a bare TCP server to take the dispatcher's
 * POSTs and answer them. The bench shares the machine's two cores with the stack it measures, and the c16 run
 * delivers ten webhooks a create: node:http's request and response objects, its streams and its timers cost
 * the bench 70–140 µs of CPU an arrival (by the VM's phase), twice what this server costs: several per cent of
 * the machine taken from the stack (perf, docs/performance.md §39). A merchant's endpoint runs on hardware of
 * its own; here it should cost as little as it can while still reading each request whole.
 *
 * What it reads: requests with a Content-Length body (what undici sends for a string body, as the dispatcher
 * does), back to back on a keep-alive connection. Everything else gets a clear answer and the connection is
 * closed: a chunked body 501, a head over 16 KiB 431, a body over 1 MiB 413, an unreadable request line or
 * length 400. It never closes an idle connection itself (the sender does), so no request meets a connection
 * closing under it.
 *
 * Not a general server: libs/testing's WebhookReceiver (node:http) serves the suites, which need its headers,
 * delays and records.
 */
export interface BareRequest {
  path: string;
  /** The delivery's `webhook-id` header ('' without one). */
  webhookId: string;
  /** The body as UTF-8 text. */
  body: string;
  /** Epoch ms when the whole body had arrived. */
  receivedAt: number;
}

export interface BareAnswer {
  status: number;
  body?: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const MAX_HEAD_BYTES = 16 * 1024;
/** An event's body is ~1.4 KB; a larger length than this is refused before anything is buffered for it. */
const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_ANSWER: BareAnswer = { status: 200, body: '{"received":true}' };

/** The bytes of a whole response: rendered once per answer, not per request. */
export function renderAnswer(answer: BareAnswer, closing = false): Buffer {
  const body = Buffer.from(answer.body ?? '');
  const reason = STATUS_CODES[answer.status] ?? 'Unknown';
  const connection = closing ? 'connection: close\r\n' : '';
  const head =
    `HTTP/1.1 ${answer.status} ${reason}\r\n` +
    `content-type: application/json\r\ncontent-length: ${body.length}\r\n${connection}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** Bad request line, header or length; body too large; head too large; chunked body. */
type RefusalStatus = 400 | 413 | 431 | 501;

/** A request head's parts this server acts on, or why it cannot be served. */
export type ParsedHead =
  | { ok: true; path: string; contentLength: number; webhookId: string; keepAlive: boolean }
  | { ok: false; status: RefusalStatus };

export function parseHead(head: string): ParsedHead {
  const lines = head.split('\r\n');
  const requestLine = /^[A-Z]+ (\S+) HTTP\/1\.([01])$/.exec(lines[0]);
  if (!requestLine) return { ok: false, status: 400 };
  let contentLength = 0;
  let webhookId = '';
  let keepAlive = requestLine[2] === '1';
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index];
    const colon = line.indexOf(':');
    if (colon <= 0) return { ok: false, status: 400 };
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,9}$/.test(value)) return { ok: false, status: 400 };
      contentLength = Number(value);
      if (contentLength > MAX_BODY_BYTES) return { ok: false, status: 413 };
    } else if (name === 'transfer-encoding') {
      return { ok: false, status: 501 };
    } else if (name === 'webhook-id') {
      webhookId = value;
    } else if (name === 'connection') {
      keepAlive = value.toLowerCase() !== 'close';
    }
  }
  return { ok: true, path: requestLine[1].split('?')[0], contentLength, webhookId, keepAlive };
}

export class BareHttpReceiver {
  private readonly answers = new Map<string, Buffer>();
  private readonly defaultAnswer = renderAnswer(DEFAULT_ANSWER);
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor(private readonly onRequest: (request: BareRequest) => void) {
    this.server = createServer({ noDelay: true }, (socket) => this.serve(socket));
  }

  static async start(onRequest: (request: BareRequest) => void): Promise<BareHttpReceiver> {
    const receiver = new BareHttpReceiver(onRequest);
    await new Promise<void>((resolve, reject) => {
      receiver.server.once('error', reject);
      receiver.server.listen(0, '127.0.0.1', () => resolve());
    });
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** How `path` answers from now on. */
  respond(path: string, answer: BareAnswer): void {
    this.answers.set(path, renderAnswer(answer));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    // A sender that resets its connection: nothing to answer.
    socket.on('error', () => socket.destroy());
    let pending: Buffer | null = null;
    socket.on('data', (chunk: Buffer) => {
      // After a refusal the connection is closing: what else arrives is not read.
      if (socket.writableEnded) return;
      pending = pending === null ? chunk : Buffer.concat([pending, chunk]);
      pending = this.answerWhole(socket, pending);
    });
  }

  /** Answers every whole request at the front of `buffered`; returns what is left of the next one. */
  private answerWhole(socket: Socket, buffered: Buffer): Buffer | null {
    let rest = buffered;
    while (rest.length > 0 && !socket.writableEnded) {
      const headEnd = rest.indexOf(HEAD_END);
      if (headEnd < 0) {
        if (rest.length <= MAX_HEAD_BYTES) return rest;
        this.refuse(socket, 431);
        return null;
      }
      const head = parseHead(rest.toString('latin1', 0, headEnd));
      if (!head.ok) {
        this.refuse(socket, head.status);
        return null;
      }
      const bodyEnd = headEnd + HEAD_END.length + head.contentLength;
      if (rest.length < bodyEnd) return rest;
      this.onRequest({
        path: head.path,
        webhookId: head.webhookId,
        body: rest.toString('utf8', headEnd + HEAD_END.length, bodyEnd),
        receivedAt: Date.now(),
      });
      socket.write(this.answers.get(head.path) ?? this.defaultAnswer);
      if (!head.keepAlive) {
        socket.end();
        return null;
      }
      rest = rest.subarray(bodyEnd);
    }
    return null;
  }

  private refuse(socket: Socket, status: RefusalStatus): void {
    socket.end(renderAnswer({ status, body: JSON.stringify({ error: STATUS_CODES[status] }) }, true));
  }
}
