import { applyDecorators, Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiResponseOptions, ApiSecurity } from '@nestjs/swagger';
import { IdempotentCommand } from '../idempotency/idempotency.gate';
import type { BusCommandShapes } from './bus-catalogue';
import { JsonSchema, schemaRef } from './json-schema';
import { requestFieldsOf, requestSchemaOf } from './request-schemas';
import { COMMAND_SHAPES, WIRE_SCHEMAS } from './wire-schemas.generated';

/**
 * The reference of one route, on the controller method it describes: what the route takes (its DTO
 * classes, whose schemas come from their validation rules), what it answers (the result of the
 * command it sends, so the HTTP answer and the bus reply share one schema), how it is authenticated,
 * and the refusals it can answer, each in one of the two envelopes of spec §7.
 *
 * `kind` decides the headers and refusals: `query` (token, read), `command` (token, idempotent
 * write), `credentials` (token issuance), `hosted` (shopper pages: the intent's client_secret).
 *
 * A `command` route is also marked IdempotentCommand, here and nowhere else: the AuthGuard then holds its
 * idempotency claim and the IdempotencyGate settles it (idempotency.gate.ts); idempotency-coverage.spec.ts
 * checks that every authenticated, writing POST has the mark. Not a Nest interceptor: any interceptor puts its
 * requests through Nest's observable chain, ~25 µs each (docs/performance.md §26).
 */
export type RouteKind = 'query' | 'command' | 'credentials' | 'hosted';
export type CommandType = keyof BusCommandShapes;
export type WireSchemaName = keyof typeof WIRE_SCHEMAS;

interface RouteDocBase {
  summary: string;
  description?: string;
  kind: RouteKind;
  body?: Type<unknown>;
  query?: Type<unknown>;
  params?: Type<unknown>;
  requestExample?: unknown;
  responseExample?: unknown;
}

export type RouteDoc = RouteDocBase &
  (
    | { /** The command whose result the route answers. */ result: CommandType }
    | { /** A named wire schema the gateway answers itself. */ response: WireSchemaName }
    | { /** An HTML page. */ html: true }
    | { /** A file sent as it is (a report download). */ file: 'text/csv' }
  );

const REPLAYED_HEADER_DOC = {
  'x-idempotent-replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same x-idempotency-key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

export function ApiRoute(doc: RouteDoc): MethodDecorator {
  const decorators: MethodDecorator[] = [
    ApiOperation({ summary: doc.summary, description: doc.description }),
    ApiResponse({ status: 200, ...successResponse(doc) }),
    ...headersOf(doc.kind),
    ...(doc.params ? requestFieldsOf(doc.params).map((field) => ApiParam({ ...field, required: true })) : []),
    ...(doc.query ? requestFieldsOf(doc.query).map((field) => ApiQuery(field)) : []),
    ...refusalsOf(doc).map(([status, response]) => ApiResponse({ status, ...response } as ApiResponseOptions)),
  ];
  if (doc.body) {
    const example = doc.requestExample === undefined ? {} : { examples: { example: { value: doc.requestExample } } };
    decorators.push(ApiBody({ required: true, schema: requestSchemaOf(doc.body), ...example }));
  }
  if (doc.kind === 'command') decorators.push(IdempotentCommand());
  if (doc.kind === 'credentials') decorators.push(ApiSecurity({ clientId: [], apiKey: [] }));
  if (doc.kind === 'hosted') decorators.push(ApiSecurity({}));
  return applyDecorators(...decorators);
}

/** The schema a route answers with on success. */
function successSchemaOf(doc: RouteDoc): JsonSchema {
  if ('result' in doc) return (COMMAND_SHAPES[doc.result].properties as { result: JsonSchema }).result;
  if ('response' in doc) return schemaRef(doc.response);
  return { type: 'string' };
}

function successResponse(doc: RouteDoc) {
  const mediaType = 'html' in doc ? 'text/html' : 'file' in doc ? doc.file : 'application/json';
  const example = doc.responseExample === undefined ? {} : { example: doc.responseExample };
  return {
    description: doc.kind === 'command' ? 'Done; a repeat with the same x-idempotency-key replays this answer.' : 'Done.',
    headers: doc.kind === 'command' ? REPLAYED_HEADER_DOC : undefined,
    content: { [mediaType]: { schema: successSchemaOf(doc), ...example } },
  };
}

function headersOf(kind: RouteKind): MethodDecorator[] {
  if (kind !== 'query' && kind !== 'command') return [];
  const headers = [
    ApiHeader({
      name: 'x-on-behalf-of',
      required: false,
      description: 'A sub-account (uuid) of the calling master account to act as; without it the caller acts.',
      schema: { type: 'string', format: 'uuid' },
    }),
  ];
  if (kind === 'command') {
    headers.push(
      ApiHeader({
        name: 'x-idempotency-key',
        required: true,
        description: 'A uuid per operation; a retry with the same key replays the first answer (24 hours).',
        schema: { type: 'string', format: 'uuid' },
      }),
    );
  }
  return headers;
}

const ENVELOPE_A = schemaRef('EnvelopeA');
const EITHER_ENVELOPE = { oneOf: [schemaRef('EnvelopeA'), schemaRef('EnvelopeB')] };

type Refusal = [status: number, response: { description: string; content: object; headers?: object }];

function refusal(description: string, schema: JsonSchema, example: object, headers?: object): Refusal[1] {
  return { description, content: { 'application/json': { schema, example } }, ...(headers ? { headers } : {}) };
}

/** The refusals a route of this kind can answer, each with the envelope it answers in. */
function refusalsOf(doc: RouteDoc): Refusal[] {
  const authenticated = doc.kind === 'query' || doc.kind === 'command';
  const badRequest = refusal(
    'Refused: validation (`invalid_request_error`, the message names the field and the rule), a domain or ' +
      'idempotency rule (envelope A); or a body that is not JSON (envelope B `Params JSON error`).',
    EITHER_ENVELOPE,
    { type: 'invalid_request_error', code: 'invalid_request_error', message: 'page_size must not be greater than 100' },
  );
  if ('html' in doc) {
    // A page answers a refusal of the service (an unknown or expired client_secret) as an error page.
    badRequest.description += ' A page answers a refusal of the payment itself with an HTML error page.';
    badRequest.content = { ...badRequest.content, 'text/html': { schema: { type: 'string' } } };
  }
  const refusals: Refusal[] = [[400, badRequest]];
  if (authenticated || doc.kind === 'credentials') {
    refusals.push([
      401,
      refusal(
        'Missing, invalid, expired or revoked credentials, or a caller IP outside the key\'s allow-list.',
        ENVELOPE_A,
        { type: 'unauthorized_error', code: 'unauthorized_error', message: 'Token expired' },
      ),
    ]);
  }
  if (doc.body) {
    refusals.push([
      413,
      refusal('The body exceeds 1 MiB.', ENVELOPE_A, {
        type: 'invalid_request_error',
        code: 'payload_too_large',
        message: 'request body exceeds 1048576 bytes',
      }),
    ]);
  }
  if (authenticated) {
    refusals.push([
      429,
      refusal(
        'Over the account\'s requests per second; retry after `Retry-After` seconds.',
        ENVELOPE_A,
        { type: 'invalid_request_error', code: 'rate_limited', message: 'Request is too frequent' },
        { 'retry-after': { description: 'Seconds to wait.', schema: { type: 'string' } } },
      ),
    ]);
  }
  refusals.push([
    500,
    refusal(
      'Internal failure or no answer in time (`api_error`): safe to retry with the same x-idempotency-key.',
      ENVELOPE_A,
      { type: 'api_error', code: 'api_error', message: 'An internal error occurred, please retry with the same idempotency key' },
    ),
  ]);
  return refusals;
}
