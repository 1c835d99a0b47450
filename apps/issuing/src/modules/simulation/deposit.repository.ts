import { Injectable } from '@nestjs/common';
import { shortReferenceId } from '@paygrid/ids';
import { Executor, rowsOf } from '@paygrid/platform';

/** All SQL of simulated deposits. */
export interface Deposit {
  depositId: string;
  shortReferenceId: string;
  accountId: string;
  currency: string;
  amountMinor: bigint;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  sender: { sender_name?: string; sender_country?: string; sender_account_number?: string; sender_swift_code: string };
  receiverAccountNumber: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export type NewDeposit = Omit<Deposit, 'shortReferenceId' | 'createdAt' | 'completedAt'> & { masterAccountId: string };

/** Short references are random (libs/ids): a rare collision mints another one. */
const SHORT_REFERENCE_ATTEMPTS = 5;

function depositFromRow(row: Record<string, unknown>): Deposit {
  return {
    depositId: row.deposit_id as string,
    shortReferenceId: row.short_reference_id as string,
    accountId: row.account_id as string,
    currency: row.currency as string,
    amountMinor: BigInt(row.amount_minor as string),
    status: row.deposit_status as Deposit['status'],
    sender: row.sender as Deposit['sender'],
    receiverAccountNumber: (row.receiver_account_number as string | null) ?? null,
    createdAt: row.created_at as Date,
    completedAt: (row.completed_at as Date | null) ?? null,
  };
}

@Injectable()
export class DepositRepository {
  async insert(executor: Executor, deposit: NewDeposit): Promise<Deposit> {
    for (let attempt = 0; attempt < SHORT_REFERENCE_ATTEMPTS; attempt += 1) {
      const [row] = rowsOf<Record<string, unknown>>(
        await executor.query(
          `INSERT INTO issuing_deposits (deposit_id, short_reference_id, account_id, master_account_id, currency, amount_minor, deposit_status,
             sender, receiver_account_number, completed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $7 = 'COMPLETED' THEN now() END)
           ON CONFLICT (short_reference_id) DO NOTHING RETURNING *`,
          [
            deposit.depositId,
            shortReferenceId({ letter: 'D', digits: 9 }),
            deposit.accountId,
            deposit.masterAccountId,
            deposit.currency,
            String(deposit.amountMinor),
            deposit.status,
            JSON.stringify(deposit.sender),
            deposit.receiverAccountNumber,
          ],
        ),
      );
      if (row) return depositFromRow(row);
    }
    throw new Error(`no free deposit short reference after ${SHORT_REFERENCE_ATTEMPTS} attempts`);
  }
}
