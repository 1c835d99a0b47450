import { Injectable } from '@nestjs/common';
import { Executor, rowsOf } from '@paygrid/platform';
import { PageWindow } from '../../common/paging';
import { BankAccount, BankAccountRow, BankDetails, toBankAccount } from './bank-account.types';

/** All SQL of settlement bank accounts. Every read is scoped to the owning account. */
@Injectable()
export class BankAccountRepository {
  /** Inserts the account, or returns undefined when the owner has one in that currency already. */
  async insert(
    executor: Executor,
    account: Omit<BankAccount, 'createdAt' | 'updatedAt'>,
  ): Promise<BankAccount | undefined> {
    const [row] = rowsOf<BankAccountRow>(
      await executor.query(
        `INSERT INTO bank_accounts (bank_account_id, account_id, currency, account_number, bank_name, swift_code,
           bank_country_code, bank_address, bank_code_type, bank_code_value, bank_branch_code, account_status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT ON CONSTRAINT bank_accounts_one_per_currency DO NOTHING
         RETURNING *`,
        [
          account.id,
          account.accountId,
          account.currency,
          account.accountNumber,
          account.bankName,
          account.swiftCode,
          account.bankCountryCode,
          account.bankAddress,
          account.bankCodeType,
          account.bankCodeValue,
          account.bankBranchCode,
          account.status,
        ],
      ),
    );
    return row ? toBankAccount(row) : undefined;
  }

  async update(
    executor: Executor,
    accountId: string,
    id: string,
    details: BankDetails & { status: BankAccount['status'] },
  ): Promise<BankAccount | undefined> {
    const [row] = rowsOf<BankAccountRow>(
      await executor.query(
        `UPDATE bank_accounts SET account_number = $3, bank_name = $4, swift_code = $5, bank_country_code = $6,
           bank_address = $7, bank_code_type = $8, bank_code_value = $9, bank_branch_code = $10, account_status = $11,
           updated_at = now()
         WHERE bank_account_id = $1 AND account_id = $2
         RETURNING *`,
        [
          id,
          accountId,
          details.accountNumber,
          details.bankName,
          details.swiftCode,
          details.bankCountryCode,
          details.bankAddress,
          details.bankCodeType,
          details.bankCodeValue,
          details.bankBranchCode,
          details.status,
        ],
      ),
    );
    return row ? toBankAccount(row) : undefined;
  }

  async find(executor: Executor, accountId: string, id: string, options: { lock?: boolean } = {}): Promise<BankAccount | undefined> {
    const [row] = rowsOf<BankAccountRow>(
      await executor.query(
        `SELECT * FROM bank_accounts WHERE bank_account_id = $1 AND account_id = $2${options.lock ? ' FOR UPDATE' : ''}`,
        [id, accountId],
      ),
    );
    return row ? toBankAccount(row) : undefined;
  }

  /** The account's settlement bank account in a currency, locked against a concurrent update. */
  async forCurrency(executor: Executor, accountId: string, currency: string): Promise<BankAccount | undefined> {
    const [row] = rowsOf<BankAccountRow>(
      await executor.query('SELECT * FROM bank_accounts WHERE account_id = $1 AND currency = $2 FOR SHARE', [accountId, currency]),
    );
    return row ? toBankAccount(row) : undefined;
  }

  async list(executor: Executor, accountId: string, window: PageWindow): Promise<{ total: number; items: BankAccount[] }> {
    const [{ total }] = await executor.query('SELECT count(*)::int AS total FROM bank_accounts WHERE account_id = $1', [accountId]);
    const rows = rowsOf<BankAccountRow>(
      await executor.query(
        'SELECT * FROM bank_accounts WHERE account_id = $1 ORDER BY created_at, bank_account_id LIMIT $2 OFFSET $3',
        [accountId, window.limit, window.offset],
      ),
    );
    return { total, items: rows.map(toBankAccount) };
  }
}
