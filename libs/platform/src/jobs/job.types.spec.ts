import { backoffDelayMs, bullJobIdOf, runDataOf } from './job.types';

describe('durable job runs', () => {
  it('names the BullMQ job of a run after its record and attempt, without a colon', () => {
    expect(bullJobIdOf({ id: 'job_01HZX', attempt: 3 })).toBe('job_01HZX-3');
  });

  it('reads only well-formed run data, so a job of another format is dropped', () => {
    expect(runDataOf({ id: 'del_1', attempt: 2 })).toEqual({ id: 'del_1', attempt: 2 });
    expect(runDataOf({ jobId: 'job_1' })).toBeUndefined();
    expect(runDataOf({ delivery_id: 'del_1', attempt: 1 })).toBeUndefined();
    expect(runDataOf({ id: 'job_1', attempt: 0 })).toBeUndefined();
    expect(runDataOf({ id: '', attempt: 1 })).toBeUndefined();
    expect(runDataOf(null)).toBeUndefined();
  });

  it('doubles the delay after each failed run, up to the cap', () => {
    const options = { backoffMs: 500, maxBackoffMs: 3000 };
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelayMs(attempt, options))).toEqual([
      500, 1000, 2000, 3000, 3000,
    ]);
  });
});
