import { Injectable } from '@nestjs/common';
import { Executor, rowsOf } from '@paygrid/platform';

/**
 * All SQL of the account directory: what payouts knows about accounts it does not own (their master,
 * short reference id and name), learnt from the accounts service's events and the sandbox seed.
 */
export interface DirectoryEntry {
  accountId: string;
  masterAccountId: string;
  shortReferenceId: string | null;
  accountName: string | null;
  /** When the source said so: an older event never overwrites a newer one. */
  observedAt: Date;
}

interface DirectoryRow {
  account_id: string;
  master_account_id: string;
  short_reference_id: string | null;
  account_name: string | null;
  observed_at: Date;
}

const toEntry = (row: DirectoryRow): DirectoryEntry => ({
  accountId: row.account_id,
  masterAccountId: row.master_account_id,
  shortReferenceId: row.short_reference_id,
  accountName: row.account_name,
  observedAt: new Date(row.observed_at),
});

@Injectable()
export class AccountDirectoryRepository {
  /** Inserts or refreshes an entry; a value the newer source leaves out (null) keeps what was known. */
  async record(executor: Executor, entry: DirectoryEntry): Promise<void> {
    await executor.query(
      `INSERT INTO account_directory (account_id, master_account_id, short_reference_id, account_name, observed_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account_id) DO UPDATE SET
         master_account_id = EXCLUDED.master_account_id,
         short_reference_id = coalesce(EXCLUDED.short_reference_id, account_directory.short_reference_id),
         account_name = coalesce(EXCLUDED.account_name, account_directory.account_name),
         observed_at = EXCLUDED.observed_at
       WHERE account_directory.observed_at <= EXCLUDED.observed_at`,
      [entry.accountId, entry.masterAccountId, entry.shortReferenceId, entry.accountName, entry.observedAt],
    );
  }

  async find(executor: Executor, accountId: string): Promise<DirectoryEntry | undefined> {
    const [row] = rowsOf<DirectoryRow>(await executor.query('SELECT * FROM account_directory WHERE account_id = $1', [accountId]));
    return row ? toEntry(row) : undefined;
  }

  async findByShortReference(executor: Executor, shortReferenceId: string): Promise<DirectoryEntry | undefined> {
    const [row] = rowsOf<DirectoryRow>(
      await executor.query('SELECT * FROM account_directory WHERE short_reference_id = $1', [shortReferenceId]),
    );
    return row ? toEntry(row) : undefined;
  }
}
