/**
 * The two error envelopes of the API (spec section 7), as typed exceptions.
 *
 * Envelope A `{type, code, message}` is the modern shape; envelope B `{code, message}` (numeric code) is
 * the legacy one the spec keeps for a few cases. Services throw these; they cross Kafka as plain
 * `SerializedApiError` objects and the gateway rethrows them unchanged. Anything else that escapes is an
 * internal failure and becomes a generic `api_error` without its message or stack.
 */
export type ErrorType =
  | 'invalid_request_error'
  | 'card_error'
  | 'cardholder_error'
  | 'account_error'
  | 'idempotency_error'
  | 'unauthorized_error'
  | 'api_error';

export type EnvelopeA = {
  type: ErrorType;
  code: string;
  message: string;
  missing_fields?: unknown[];
};

export type EnvelopeB = {
  code: number;
  message: string;
};

export interface SerializedApiError {
  status: number;
  body: EnvelopeA | EnvelopeB;
  /** Extra response headers such as Retry-After. */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: EnvelopeA | EnvelopeB,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = 'ApiError';
  }

  /** The same error with another message (e.g. to name the route in a 404). */
  withMessage(message: string): ApiError {
    return new ApiError(this.status, { ...this.body, message }, this.headers);
  }

  serialize(): SerializedApiError {
    return { status: this.status, body: this.body, headers: this.headers };
  }

  static from(serialized: SerializedApiError): ApiError {
    return new ApiError(serialized.status, serialized.body, serialized.headers ?? {});
  }
}

/** HTTP status the spec assigns to each envelope-A type. */
const STATUS_OF: Record<ErrorType, number> = {
  invalid_request_error: 400,
  card_error: 400,
  cardholder_error: 400,
  account_error: 400,
  idempotency_error: 400,
  unauthorized_error: 401,
  api_error: 500,
};

export function envelopeA(type: ErrorType, code: string, message: string, status = STATUS_OF[type]): ApiError {
  return new ApiError(status, { type, code, message });
}

export function envelopeB(status: number, message: string, code: number = status): ApiError {
  return new ApiError(status, { code, message });
}

/** Errors the whole platform raises; domain-specific ones live with their service. */
export const Errors = {
  invalidRequest: (message: string) => envelopeA('invalid_request_error', 'invalid_request_error', message),
  resourceNotFound: (what: string) =>
    envelopeA('invalid_request_error', 'resource_not_found', `${what} not found`),
  /** Spec 7.2: body not parseable or Content-Type missing. */
  paramsJsonError: () => envelopeB(400, 'Params JSON error'),
  payloadTooLarge: (limitBytes: number) =>
    envelopeA('invalid_request_error', 'payload_too_large', `request body exceeds ${limitBytes} bytes`, 413),
  unauthorized: (message: string) => envelopeA('unauthorized_error', 'unauthorized_error', message, 401),
  forbidden: (message: string) => envelopeA('unauthorized_error', 'forbidden', message, 403),
  accountNotFound: () => envelopeA('invalid_request_error', 'account_not_found', 'account not found or deactivated'),
  subAccountNotFound: () =>
    envelopeA('invalid_request_error', 'sub_account_not_found', 'on-behalf-of account not found or deactivated'),
  internal: () =>
    envelopeA('api_error', 'api_error', 'An internal error occurred, please retry with the same idempotency key'),
  serviceUnavailable: (operation: string) =>
    envelopeA(
      'api_error',
      'api_error',
      `${operation} did not answer in time; it is safe to retry with the same idempotency key`,
      500,
    ),
  operationNotAvailable: (operation: string) =>
    envelopeA('api_error', 'operation_not_available', `${operation} is not available yet on this platform`, 501),
  routeNotFound: (method: string, path: string) =>
    envelopeA('invalid_request_error', 'resource_not_found', `no route ${method} ${path}`, 404),
  tooManyRequests: (retryAfterSeconds: number) =>
    new ApiError(
      429,
      { type: 'invalid_request_error', code: 'rate_limited', message: 'Request is too frequent' },
      { 'retry-after': String(retryAfterSeconds) },
    ),
};
