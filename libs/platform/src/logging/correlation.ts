import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The correlation id of the work in progress, carried from the HTTP request (header `x-request-id`)
 * through Kafka headers into every service, so one grep finds a request's whole story.
 */
export const CORRELATION_HEADER = 'x-request-id';

interface CorrelationScope {
  correlationId: string;
}

const storage = new AsyncLocalStorage<CorrelationScope>();

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

export function runWithCorrelation<T>(correlationId: string | undefined, work: () => T): T {
  return storage.run({ correlationId: sanitizeCorrelationId(correlationId) ?? randomUUID() }, work);
}

/** Accept only short, printable ids from outside so a header cannot inject into logs. */
export function sanitizeCorrelationId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return /^[A-Za-z0-9._:-]{1,64}$/.test(value) ? value : undefined;
}
