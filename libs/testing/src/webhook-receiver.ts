import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * An in-process HTTP receiver for webhook tests (the svix test receiver idea): listens on 127.0.0.1 on a
 * free port, records every request with its raw body exactly as received, and answers what the test says,
 * per path, so one receiver can play several endpoints: a status code, headers such as Retry-After or
 * Location, a body, and an optional delay (to provoke the dispatcher's timeout). The answer can be
 * changed at any time: a failing endpoint "recovers" when the test says so.
 */
export interface ReceivedWebhook {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** The body bytes as UTF-8 text, untouched (signatures are computed over exactly this). */
  rawBody: string;
  /** Epoch ms when the whole body had arrived. */
  receivedAt: number;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
}

export type Responder = (request: ReceivedWebhook) => ReceiverAnswer;

const DEFAULT_ANSWER: ReceiverAnswer = { status: 200, body: '{"received":true}' };

export class WebhookReceiver {
  private readonly requests: ReceivedWebhook[] = [];
  private readonly responders = new Map<string, Responder>();
  private fallback: Responder = () => DEFAULT_ANSWER;
  private readonly listeners = new Set<(request: ReceivedWebhook) => void>();

  private readonly server: Server;
  private listeningPort = 0;

  private constructor() {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.keepAliveTimeout = 5000;
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve, reject) => {
      receiver.server.once('error', reject);
      receiver.server.listen(0, '127.0.0.1', () => resolve());
    });
    receiver.listeningPort = (receiver.server.address() as AddressInfo).port;
    return receiver;
  }

  get port(): number {
    return this.listeningPort;
  }

  /** The URL of one simulated endpoint on this receiver. */
  url(path = '/'): string {
    return `http://127.0.0.1:${this.port}${path.startsWith('/') ? path : `/${path}`}`;
  }

  /** How `path` answers from now on (a fixed answer or a function of the request). */
  respond(path: string, answer: ReceiverAnswer | Responder): void {
    this.responders.set(path, typeof answer === 'function' ? answer : () => answer);
  }

  /** How every path without its own answer answers (default 200). */
  respondByDefault(answer: ReceiverAnswer | Responder): void {
    this.fallback = typeof answer === 'function' ? answer : () => answer;
  }

  /** Requests received so far, in arrival order; only those of `path` when given. */
  received(path?: string): ReceivedWebhook[] {
    return path === undefined ? [...this.requests] : this.requests.filter((request) => request.path === path);
  }

  /** Called for every request as it arrives (benchmarks measure latency here). */
  onRequest(listener: (request: ReceivedWebhook) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The endpoint's server goes down: connections are refused until `up()`. */
  down(): Promise<void> {
    return this.close();
  }

  /** Listens again, on the same port (so the endpoint's URL is unchanged). */
  async up(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.listeningPort, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks = await bodyChunks(request).catch(() => null);
    // A request whose sender gave up before the end of its body was not delivered: nothing to record or answer.
    if (chunks === null) return;
    const path = (request.url ?? '/').split('?')[0];
    const received: ReceivedWebhook = {
      path,
      method: request.method ?? 'GET',
      headers: request.headers,
      rawBody: Buffer.concat(chunks).toString('utf8'),
      receivedAt: Date.now(),
    };
    this.requests.push(received);
    for (const listener of this.listeners) listener(received);
    const answer = (this.responders.get(path) ?? this.fallback)(received);
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (response.destroyed) return;
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(answer.body ?? '');
  }
}

/**
 * The request's body as it arrived, read with the stream's events (cheaper than an async iterator over the
 * request, docs/performance.md §38; the webhooks bench and chaos still receive through this class). Rejects
 * when the request fails or closes before its end, so that `handle` can ignore a delivery its sender gave up
 * on instead of rejecting inside the server's handler.
 */
export function bodyChunks(request: IncomingMessage): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(chunks));
    request.on('error', reject);
    request.once('close', () => {
      if (!request.complete) reject(new Error('the request closed before the end of its body'));
    });
  });
}
