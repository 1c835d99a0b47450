import { ApiError, envelopeA, Errors } from '@paygrid/platform';
import { TransitionRefusedError } from '@paygrid/state-machine';

/**
 * Refusals of the webhook commands (envelope A). Another account's endpoint or delivery is reported
 * exactly like a missing one (decisions §1).
 */
export const WebhookErrors = {
  endpointNotFound: (): ApiError => Errors.resourceNotFound('webhook endpoint'),
  deliveryNotFound: (): ApiError => Errors.resourceNotFound('webhook delivery'),
  invalidUrl: (reason: string): ApiError => envelopeA('invalid_request_error', 'invalid_webhook_url', reason),
  endpointDisabled: (): ApiError =>
    envelopeA(
      'invalid_request_error',
      'webhook_endpoint_disabled',
      'the webhook endpoint is disabled; enable it before retrying or replaying its deliveries',
    ),
  /** "cannot retry webhook delivery: status is PENDING" (statuses upper case, as on the wire). */
  transitionRefused: (error: TransitionRefusedError): ApiError =>
    envelopeA(
      'invalid_request_error',
      'invalid_status',
      error.message.replace(/status is (\w+)$/, (_, status: string) => `status is ${status.toUpperCase()}`),
    ),
};
