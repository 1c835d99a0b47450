import { createLedgerTablesMigration } from '@paygrid/ledger';
import { AppMigrations } from '@paygrid/platform';
import { IssuingTables1760000000000 } from './1760000000000-issuing';
import { IssuingFunds1760000000100 } from './1760000000100-issuing-funds';
import { CardTransactions1760000000200 } from './1760000000200-card-transactions';

/** The issuing ledger's tables (libs/ledger), right after the service's own first tables. */
const LedgerTables = createLedgerTablesMigration(1760000000001);

/**
 * The issuing database, for the module's boot and `npm run migrate` alike (add a new migration here).
 * KYC reviews and card orders are durable jobs, so the platform's jobs table comes first.
 */
export function issuingMigrations(): AppMigrations {
  return {
    durableJobs: true,
    migrations: [
      IssuingTables1760000000000,
      LedgerTables,
      IssuingFunds1760000000100,
      CardTransactions1760000000200,
    ],
  };
}
