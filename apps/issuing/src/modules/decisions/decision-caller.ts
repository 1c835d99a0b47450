import { once } from 'node:events';
import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import { LookupFunction } from 'node:net';
import {
  AddressRefusedError,
  assertPublicTarget,
  forbiddenLiteral,
  guardedLookup,
  parseOutboundUrl,
  Resolver,
  UrlRefusedError,
} from '@paygrid/platform';

/**
 * The network half of a decision request, under the platform's outbound guard (libs/platform
 * http/outbound-guard.ts; docs/issuing.md "Decision endpoint safety"). Unless private URLs are allowed, a URL
 * is refused when it is set if its host resolves to a loopback, private, link-local, unique-local or metadata
 * address, and checked again when it is called: an IP literal before connecting, a host name through the
 * socket's lookup, so the address the request connects to is the one checked (a DNS answer that changed since
 * the endpoint was set, DNS rebinding, cannot reach an internal service). A refused call is never made.
 *
 * node:http rather than fetch: fetch takes no lookup, and checking the name before fetch resolves it again
 * would leave the window rebinding needs. Redirects are not followed (a 3xx is just a non-2xx status).
 */
export const ANSWER_MAX_BYTES = 64 * 1024;

export type DecisionCallOutcome =
  | { kind: 'answered'; status: number; body: string }
  /** Nothing was sent: the address is forbidden. */
  | { kind: 'refused'; why: string }
  | { kind: 'failed'; why: string };

export interface DecisionCallerOptions {
  allowPrivate: boolean;
  /** Replaces the system's DNS lookup (tests). */
  resolve?: Resolver;
}

export class DecisionCaller {
  private readonly lookup?: LookupFunction;
  private readonly httpAgent = new http.Agent({ keepAlive: true });
  private readonly httpsAgent = new https.Agent({ keepAlive: true });

  constructor(private readonly options: DecisionCallerOptions) {
    this.lookup = options.allowPrivate ? undefined : guardedLookup(options.resolve);
  }

  /** When the endpoint is set: throws UrlRefusedError naming why (scheme, length, a forbidden address). */
  async checkUrl(raw: string): Promise<void> {
    await assertPublicTarget(raw, this.options.allowPrivate, this.options.resolve);
  }

  /** One POST with a deadline over the whole exchange; never throws. */
  async post(rawUrl: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<DecisionCallOutcome> {
    let url: URL;
    try {
      url = parseOutboundUrl(rawUrl);
    } catch (error) {
      return { kind: 'refused', why: error instanceof UrlRefusedError ? error.message : 'invalid url' };
    }
    const literal = this.options.allowPrivate ? undefined : forbiddenLiteral(url);
    if (literal !== undefined) return { kind: 'refused', why: new AddressRefusedError(literal).message };
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const secure = url.protocol === 'https:';
      const request = (secure ? https : http).request(url, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: this.lookup,
        signal,
      });
      request.end(body);
      const [response] = (await once(request, 'response')) as [IncomingMessage];
      const answer = await readAtMost(response, ANSWER_MAX_BYTES);
      if (answer === undefined) return { kind: 'failed', why: 'the answer is too large' };
      if (signal.aborted) throw signal.reason;
      return { kind: 'answered', status: response.statusCode ?? 0, body: answer };
    } catch (error) {
      if (error instanceof AddressRefusedError) return { kind: 'refused', why: error.message };
      if (signal.aborted) return { kind: 'failed', why: `no answer within ${timeoutMs} ms` };
      return { kind: 'failed', why: 'the endpoint could not be reached' };
    }
  }

  /** Nest calls this at shutdown: kept-alive sockets must not hold the process. */
  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** The body as text, or undefined once it passes `limit` bytes (the rest is not read). */
async function readAtMost(response: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      response.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
