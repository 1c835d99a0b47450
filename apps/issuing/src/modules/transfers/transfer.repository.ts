import { Injectable } from '@nestjs/common';
import { IssuingTransferStatus } from '@paygrid/contracts';
import { shortReferenceId } from '@paygrid/ids';
import { Executor, rowsOf } from '@paygrid/platform';
import { applyTransition } from '@paygrid/state-machine';
import { transferMachine } from './transfer.states';
import { IssuingAccountRef, IssuingTransfer, NewIssuingTransfer } from './transfer.types';

/** All SQL of issuing transfers. */
const SHORT_ID_ATTEMPTS = 5;

function transferFromRow(row: Record<string, unknown>): IssuingTransfer {
  return {
    transferId: row.transfer_id as string,
    shortTransactionId: row.short_transaction_id as string,
    masterAccountId: row.master_account_id as string,
    creatorAccountId: row.creator_account_id as string,
    sourceAccountId: row.source_account_id as string,
    destinationAccountId: row.destination_account_id as string,
    currency: row.currency as string,
    amountMinor: BigInt(row.amount_minor as string),
    status: row.transfer_status as IssuingTransferStatus,
    remark: (row.remark as string | null) ?? null,
    failureReason: (row.failure_reason as string | null) ?? null,
    createdAt: row.created_at as Date,
    completedAt: (row.completed_at as Date | null) ?? null,
  };
}

@Injectable()
export class TransferRepository {
  async accounts(executor: Executor, accountIds: string[]): Promise<Map<string, IssuingAccountRef>> {
    const rows = rowsOf<{ account_id: string; master_account_id: string }>(
      await executor.query(`SELECT account_id, master_account_id FROM issuing_accounts WHERE account_id = ANY($1::uuid[])`, [accountIds]),
    );
    return new Map(rows.map((row) => [row.account_id, { accountId: row.account_id, masterAccountId: row.master_account_id }]));
  }

  async insert(executor: Executor, transfer: NewIssuingTransfer): Promise<IssuingTransfer> {
    for (let attempt = 0; attempt < SHORT_ID_ATTEMPTS; attempt += 1) {
      const [row] = rowsOf<Record<string, unknown>>(
        await executor.query(
          `INSERT INTO issuing_transfers (transfer_id, short_transaction_id, master_account_id, creator_account_id, source_account_id,
             destination_account_id, currency, amount_minor, transfer_status, remark)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'PENDING', $9)
           ON CONFLICT (short_transaction_id) DO NOTHING RETURNING *`,
          [
            transfer.transferId,
            shortReferenceId({ letter: 'T', digits: 9 }),
            transfer.masterAccountId,
            transfer.creatorAccountId,
            transfer.sourceAccountId,
            transfer.destinationAccountId,
            transfer.currency,
            String(transfer.amountMinor),
            transfer.remark,
          ],
        ),
      );
      if (row) return transferFromRow(row);
    }
    throw new Error(`no free transfer short id after ${SHORT_ID_ATTEMPTS} attempts`);
  }

  /** A transfer the account is a side of (either side sees it; nobody else does). */
  async findFor(executor: Executor, accountId: string, transferId: string): Promise<IssuingTransfer | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM issuing_transfers WHERE transfer_id = $1 AND (source_account_id = $2 OR destination_account_id = $2)`, [
        transferId,
        accountId,
      ]),
    );
    return row ? transferFromRow(row) : undefined;
  }

  async findById(executor: Executor, transferId: string, options: { lock?: boolean } = {}): Promise<IssuingTransfer | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM issuing_transfers WHERE transfer_id = $1${options.lock ? ' FOR UPDATE' : ''}`, [transferId]),
    );
    return row ? transferFromRow(row) : undefined;
  }

  async list(
    executor: Executor,
    accountId: string,
    filter: { status?: IssuingTransferStatus; pageNumber: number; pageSize: number },
  ): Promise<{ items: IssuingTransfer[]; total: number }> {
    const where = `(source_account_id = $1 OR destination_account_id = $1) AND ($2::text IS NULL OR transfer_status = $2)`;
    const params = [accountId, filter.status ?? null];
    const rows = rowsOf<Record<string, unknown>>(
      await executor.query(
        `SELECT *, count(*) OVER () AS total FROM issuing_transfers WHERE ${where}
          ORDER BY created_at DESC, transfer_id DESC LIMIT $3 OFFSET $4`,
        [...params, filter.pageSize, (filter.pageNumber - 1) * filter.pageSize],
      ),
    );
    if (rows.length > 0 || filter.pageNumber === 1) return { items: rows.map(transferFromRow), total: rows.length > 0 ? Number(rows[0].total) : 0 };
    const [count] = rowsOf<{ total: string }>(await executor.query(`SELECT count(*) AS total FROM issuing_transfers WHERE ${where}`, params));
    return { items: [], total: Number(count.total) };
  }

  async transition(executor: Executor, transferId: string, event: 'COMPLETE' | 'FAIL', failureReason: string | null): Promise<IssuingTransfer> {
    const row = await applyTransition(executor, transferMachine, {
      table: 'issuing_transfers',
      id: transferId,
      idColumn: 'transfer_id',
      statusColumn: 'transfer_status',
      event,
      set: { failure_reason: failureReason, updated_at: new Date(), completed_at: new Date() },
    });
    return transferFromRow(row);
  }
}
