import { AppMigrations } from '@paygrid/platform';
import { IdempotencyRecords1710000000000 } from './1710000000000-idempotency-records';

/**
 * The gateway database, for the module's boot and `npm run migrate` alike (add a new migration here).
 * idempotency_records is no longer written (the records are in Redis, docs/gateway.md); it stays until every
 * gateway of the release that wrote it is gone, so a rolling deploy does not fail them.
 */
export function gatewayMigrations(): AppMigrations {
  return { durableJobs: false, migrations: [IdempotencyRecords1710000000000] };
}
