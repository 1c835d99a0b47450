import { SetMetadata } from '@nestjs/common';
import { JobHandler } from './job.types';

/**
 * `@HandleJob('auto_capture')` on a provider method makes it the handler of that job kind; the module
 * discovers every one at boot and refuses to start if two claim a kind, or if a pending job's kind has
 * none. A handler receives the subject id (and which run this is); it may run more than once (a
 * process killed after the work but before recording it), so it re-reads the state it acts on and
 * changes it only through conditional updates. A handler that throws is retried with backoff.
 *
 * `@DurableJobRecord('webhook_delivery')` on a provider implementing JobRecord says that kind keeps its
 * own record instead of a `durable_jobs` row (see JobRecord).
 */
export const JOB_HANDLER = 'paygrid:job-handler';
export const JOB_RECORD = 'paygrid:job-record';

export function HandleJob(kind: string) {
  const mark = SetMetadata<string, string>(JOB_HANDLER, kind);
  return (target: object, key: string | symbol, descriptor: { value?: JobHandler }): void => {
    mark(target, key, descriptor as PropertyDescriptor);
  };
}

export function DurableJobRecord(kind: string): ClassDecorator {
  return SetMetadata<string, string>(JOB_RECORD, kind);
}
