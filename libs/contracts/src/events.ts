/**
 * The domain event envelope every service publishes and every consumer reads.
 *
 * `event_type` is the category merchants see in webhooks (spec section 6, wire-compat 13.2) and
 * `event_name` the dotted name consumers switch on. `data` is the resource as the API returns it:
 * card numbers only masked, never a CVC (architecture rule 7).
 */

/** What an event is about; OPERATIONS events are for the platform only, never delivered to merchants. */
export type EventCategory = 'ACQUIRING' | 'ISSUING' | 'PAYOUT' | 'ONBOARDING' | 'OPERATIONS';

export interface DomainEvent<D = Record<string, unknown>> {
  event_id: string;
  event_name: string;
  event_type: EventCategory;
  /** Envelope version, bumped on breaking payload changes. */
  version: string;
  /** Id of the resource whose change this is (also the Kafka message key). */
  source_id: string;
  /** The account the resource belongs to; webhooks go to its endpoints. */
  account_id: string;
  /** The master account of `account_id` (itself for a master): endpoints opted in to sub-accounts. */
  master_account_id: string;
  create_time: string;
  data: D;
}

export const EVENT_ENVELOPE_VERSION = 'V1.0.0';

export class EventFormatError extends Error {}

const REQUIRED_STRING_FIELDS = [
  'event_id',
  'event_name',
  'event_type',
  'version',
  'source_id',
  'account_id',
  'master_account_id',
  'create_time',
] as const;

/** Runtime check at the consumer edge: a malformed message is rejected, never half-processed. */
export function parseDomainEvent(raw: unknown): DomainEvent {
  const value = typeof raw === 'string' ? safeJson(raw) : raw;
  if (typeof value !== 'object' || value === null) throw new EventFormatError('event is not an object');
  const candidate = value as Record<string, unknown>;
  for (const field of REQUIRED_STRING_FIELDS) {
    if (typeof candidate[field] !== 'string' || candidate[field] === '') {
      throw new EventFormatError(`event field ${field} must be a non-empty string`);
    }
  }
  if (typeof candidate.data !== 'object' || candidate.data === null) {
    throw new EventFormatError('event field data must be an object');
  }
  return candidate as unknown as DomainEvent;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new EventFormatError('event is not valid JSON');
  }
}
