/**
 * Work the acquiring service must do later, as durable jobs of the platform (libs/platform/src/jobs):
 * Postgres (`durable_jobs`) is the record of what is due (architecture rule 9); BullMQ only wakes a
 * worker at the due time. Queue and kind names are stored in Redis and Postgres: never rename one, add a
 * new one instead.
 */
export const JOB_KINDS = [
  /** The asynchronous sandbox card: ask the processor for the final answer. */
  'complete_async_authorization',
  /** A 3-D Secure challenge nobody finished before the client_secret expired. */
  'expire_authentication',
  /** The manual-capture window closed: capture what is still only authorised. */
  'auto_capture',
  /** A cancelled authorisation: release it at the processor. */
  'void_authorization',
  /** A captured payment: clear it and put it in a settlement batch. */
  'settle_capture',
  /** A new refund: submit it to the processor. */
  'process_refund',
] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const JOB_QUEUE_NAME = 'acquiring-jobs';

/** A job recorded in a transaction, waiting for that transaction's commit to be handed to BullMQ. */
export interface ScheduledJob {
  afterCommit: (() => unknown)[];
}

export type JobHandler = (subjectId: string) => Promise<void>;
