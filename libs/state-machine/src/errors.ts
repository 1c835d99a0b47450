/**
 * Why: a refused transition is a client-facing 400 that must name the current status (architecture rule 5),
 * so the error carries the aggregate, event and status as fields for the error mapper, with a message already
 * in the house style: "cannot cancel PaymentIntent: status is SUCCEEDED".
 */

export class TransitionRefusedError extends Error {
  override readonly name = 'TransitionRefusedError';
  readonly aggregate: string;
  readonly event: string;
  readonly currentStatus: string;
  /** The statuses the event may leave from, for logs and the error detail. */
  readonly allowedFrom: readonly string[];
  readonly aggregateId: string | undefined;

  constructor(details: {
    aggregate: string;
    event: string;
    verb: string;
    currentStatus: string;
    allowedFrom: readonly string[];
    aggregateId?: string;
  }) {
    super(`cannot ${details.verb} ${details.aggregate}: status is ${details.currentStatus}`);
    this.aggregate = details.aggregate;
    this.event = details.event;
    this.currentStatus = details.currentStatus;
    this.allowedFrom = details.allowedFrom;
    this.aggregateId = details.aggregateId;
  }
}

/** The conditional update found no row with that id at all. */
export class AggregateNotFoundError extends Error {
  override readonly name = 'AggregateNotFoundError';

  constructor(
    readonly aggregate: string,
    readonly aggregateId: string,
  ) {
    super(`${aggregate} ${aggregateId} not found`);
  }
}

/** The transition table itself is wrong: thrown at definition time, so at module load, never per request. */
export class InvalidStateMachineError extends Error {
  override readonly name = 'InvalidStateMachineError';
}
