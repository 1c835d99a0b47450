/** Injection tokens of the durable-jobs module. */
export const JOBS_OPTIONS = Symbol('JOBS_OPTIONS');
/** The app's one BullMQ queue (an alias of @nestjs/bullmq's token for it). */
export const JOBS_QUEUE = Symbol('JOBS_QUEUE');
/** The app's one shared Redis connection for BullMQ (the worker adds its blocking duplicate). */
export const JOBS_CONNECTION = Symbol('JOBS_CONNECTION');
