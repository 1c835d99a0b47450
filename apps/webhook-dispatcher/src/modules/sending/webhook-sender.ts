import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import {
  AddressRefusedError,
  forbiddenLiteral,
  guardedLookup,
  parseOutboundUrl,
  traceHttpCall,
  UrlRefusedError,
} from '@paygrid/platform';

/**
 * One HTTP POST to a merchant endpoint, with the guarantees of decisions §8: a hard deadline for the whole
 * exchange, redirects never followed (node:http does not follow them; a 3xx is simply a failed attempt),
 * only the first 1 KiB of the response kept, and, unless private URLs are allowed, the address the socket
 * actually connects to checked against the forbidden ranges at connect time, so a DNS answer that changed
 * since registration (DNS rebinding) cannot reach an internal address.
 *
 * Never throws: every failure is an outcome with `statusCode: null` and an error text for the attempt log.
 */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string;
  retryAfter?: string;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  maxSockets: number;
}

export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  /** Resolves like dns.lookup and refuses a forbidden answer (platform outbound guard). */
  private readonly lookup = guardedLookup();

  constructor(private readonly options: SenderOptions) {
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: options.maxSockets });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /** Nest calls this on the provider instance at shutdown. */
  onApplicationShutdown(): void {
    this.close();
  }

  /** The POST, in a CLIENT span (host and port only: the path may hold the merchant's secret). */
  send(rawUrl: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    return traceHttpCall('POST', rawUrl, () => this.post(rawUrl, body, headers));
  }

  private post(rawUrl: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = parseOutboundUrl(rawUrl);
    } catch (error) {
      return Promise.resolve(
        failure(error instanceof UrlRefusedError ? error.message : 'invalid url', elapsed()),
      );
    }
    const literal = this.options.allowPrivate ? undefined : forbiddenLiteral(url);
    if (literal !== undefined) {
      return Promise.resolve(failure(new AddressRefusedError(literal).message, elapsed()));
    }
    const secure = url.protocol === 'https:';
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let statusCode: number | null = null;
      let retryAfter: string | undefined;
      const chunks: Buffer[] = [];
      let received = 0;
      const finish = (error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        const excerpt = Buffer.concat(chunks)
          .subarray(0, RESPONSE_EXCERPT_BYTES)
          .toString('utf8')
          .replace(/\u0000/g, '');
        resolve({ statusCode, error, latencyMs: elapsed(), responseExcerpt: excerpt, retryAfter });
      };
      const request = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: secure ? this.httpsAgent : this.httpAgent,
          lookup: this.options.allowPrivate ? undefined : this.lookup,
        },
        (response: IncomingMessage) => {
          statusCode = response.statusCode ?? null;
          retryAfter = firstHeader(response.headers['retry-after']);
          response.on('data', (chunk: Buffer) => {
            if (received < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
            received += chunk.length;
            // The rest of a large body is of no use to anyone: stop reading it.
            if (received >= RESPONSE_EXCERPT_BYTES) {
              finish(null);
              response.destroy();
            }
          });
          response.on('end', () => finish(null));
          response.on('error', () => finish(null));
          response.on('close', () => finish(null));
        },
      );
      const deadline = setTimeout(() => {
        finish(statusCode === null ? `timed out after ${this.options.timeoutMs} ms` : null);
        request.destroy();
      }, this.options.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => finish(describeNetworkError(error)));
      request.end(body);
    });
  }
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  if (error instanceof AddressRefusedError) return error.message;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

function failure(error: string, latencyMs: number): SendResult {
  return { statusCode: null, error, latencyMs, responseExcerpt: '' };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
