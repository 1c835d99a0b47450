import { context, SpanKind } from '@opentelemetry/api';
import { inSpan } from '@paygrid/platform';
import { ProcessOutcome } from './delivery-processor';

/** One attempt of one delivery as a span of the active trace, whichever path (job or direct) sends it. */
export function inDeliverySpan(
  deliveryId: string,
  attempt: number,
  run: () => Promise<ProcessOutcome>,
): Promise<ProcessOutcome> {
  const attributes = { 'paygrid.delivery_id': deliveryId, 'paygrid.delivery.attempt': attempt };
  return inSpan(
    'deliver webhook',
    { kind: SpanKind.INTERNAL, attributes },
    context.active(),
    async (span) => {
      const outcome = await run();
      span.setAttribute('paygrid.delivery.outcome', outcome);
      return outcome;
    },
  );
}
