import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Counter, Gauge } from 'prom-client';
import { Metrics } from '../metrics/metrics';
import { JobStore } from './job-store';

/**
 * The durable-jobs series on the app's registry (served at /metrics): `paygrid_durable_jobs` by status,
 * pending and failed (sampled when Prometheus scrapes; a growing `failed` count is on-call's signal),
 * runs by kind and outcome, and how many runs the reconciler had to put back into Redis.
 */
export type RunOutcome = 'succeeded' | 'retried' | 'failed' | 'stale' | 'dropped';

@Injectable()
export class JobMetrics {
  readonly runs: Counter<'kind' | 'outcome'>;
  readonly reenqueued: Counter<'kind'>;

  constructor(metrics: Metrics, dataSource: DataSource, store: JobStore) {
    const registers = [metrics.registry];
    const open: Gauge<'status'> = new Gauge({
      name: 'paygrid_durable_jobs',
      help: 'Durable jobs still pending, and failed ones waiting for on-call (sampled at scrape time)',
      labelNames: ['status'],
      registers,
      collect: async () => {
        const counts = await store.countOpen(dataSource).catch(() => undefined);
        if (!counts) return;
        open.set({ status: 'pending' }, counts.pending);
        open.set({ status: 'failed' }, counts.failed);
      },
    });
    this.runs = new Counter({
      name: 'paygrid_job_runs_total',
      help: 'Durable job runs by kind and outcome (succeeded, retried, failed, stale, dropped)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.reenqueued = new Counter({
      name: 'paygrid_jobs_reenqueued_total',
      help: 'Due runs the reconciler found missing from Redis and enqueued again',
      labelNames: ['kind'],
      registers,
    });
  }
}
