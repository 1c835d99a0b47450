import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { ApiError, Errors } from '../errors/api-error';
import { LOGGER } from '../nest/tokens';
import { toApiError } from './error-mapping';
import { jsonShapeProblem } from './json-shape';

/** Writes an ApiError as JSON with its status and headers. */
export function sendApiError(reply: FastifyReply, error: ApiError): void {
  sendJson(reply, error.status, error.headers, error.body);
}

/** A JSON answer: an object is serialised by Fastify, a string is sent as the JSON text it is. */
function sendJson(reply: FastifyReply, status: number, headers: Record<string, string>, body: object | string): void {
  void reply.status(status).headers(headers).type('application/json; charset=utf-8').send(body);
}

/**
 * An answer decided before the route ran, written as it is: thrown by a guard (the gateway's idempotency gate
 * replaying a stored answer) and written by HttpErrorFilter with its status, headers and JSON text unchanged,
 * byte for byte. Not an error of the request: nothing is logged.
 */
export class PreparedAnswer extends Error {
  constructor(
    readonly status: number,
    /** The answer's JSON text, sent without being parsed or serialised again. */
    readonly json: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`prepared answer ${status}`);
    this.name = 'PreparedAnswer';
  }
}

function report(logger: Logger, error: unknown, request: FastifyRequest | undefined, unexpected: boolean) {
  if (unexpected) logger.error({ err: error, method: request?.method, route: request?.routeOptions?.url }, 'request failed');
}

/** The one exception filter of every HTTP app. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    if (exception instanceof PreparedAnswer) {
      return sendJson(http.getResponse<FastifyReply>(), exception.status, exception.headers, exception.json);
    }
    const request = http.getRequest<FastifyRequest>();
    const { apiError, unexpected } = toApiError(exception);
    report(this.logger, exception, request, unexpected);
    const routed =
      apiError.status === 404 && !(exception instanceof ApiError)
        ? Errors.routeNotFound(request.method, request.url.split('?')[0])
        : apiError;
    sendApiError(http.getResponse<FastifyReply>(), routed);
  }
}

/**
 * JSON bodies the way the official SDKs send them: an empty body with `Content-Type: application/json`
 * (the token call, GETs) is no body at all, and an unparseable one answers envelope B "Params JSON
 * error". Before parsing, the bytes must be UTF-8 and the text within the shape limits (json-shape.ts);
 * either refusal is a 400 naming the problem. Fastify's own parser still does the parsing, so
 * prototype-poisoning protection stays.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function installJsonBodyParser(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  // JSON only: any other body type (or none declared) is a 415 from Fastify, answered as Params JSON error.
  fastify.removeAllContentTypeParsers();
  // Bytes, not a string: decoding as we go would turn bad UTF-8 into a length mismatch with Content-Length.
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = typeof body === 'string' ? body : UTF8.decode(body);
    } catch {
      return done(Errors.invalidRequest('the request body is not valid UTF-8'), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    const shapeProblem = jsonShapeProblem(text);
    if (shapeProblem) return done(Errors.invalidRequest(shapeProblem), undefined);
    parseJson(request, text, (error, parsed) => (error ? done(Errors.paramsJsonError(), undefined) : done(null, parsed)));
  });
}

/** Errors Fastify's router raises before any route runs (malformed URL, over-long path parameter). */
export function routerRefusal(error: { code?: string }): ApiError {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return Errors.invalidRequest('a path parameter is too long');
  return Errors.invalidRequest('the request URL could not be read');
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers over the size limit, a
 * malformed request line): answered on the raw socket, still in envelope A.
 */
export function answerClientError(error: Error & { code?: string }, socket: import('node:net').Socket): void {
  if (!socket.writable) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify({
    type: 'invalid_request_error',
    code: tooLarge ? 'headers_too_large' : 'invalid_request_error',
    message: tooLarge ? 'request headers exceed the size limit' : 'the HTTP request could not be read',
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
