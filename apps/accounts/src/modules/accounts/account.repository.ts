import { Injectable } from '@nestjs/common';
import { Executor, rowsOf } from '@paygrid/platform';
import { applyTransition, StateMachine } from '@paygrid/state-machine';
import { isUuid, shortReferenceId } from '@paygrid/ids';
import {
  AccountStatusEvent,
  accountStatusMachine,
  VerificationEvent,
  verificationStatusMachine,
} from './account.states';
import { Account, AccountRow } from './account.types';

/**
 * All SQL of the accounts table, raw, with one typed row mapper (toAccount). Every method takes the
 * executor to run on, so a command handler's writes share the command-ledger transaction with its
 * outbox rows. Status columns are written only through `transitionStatus` / `transitionVerification`
 * (conditional updates, architecture rule 5).
 */
export type NewAccount = Omit<Account, 'shortReferenceId' | 'reviewDueAt' | 'createdAt' | 'updatedAt'> & {
  /** Fixed for the sandbox seed; minted otherwise. */
  shortReferenceId?: string;
};

/** Nine digits: a collision is rare, and `insert` mints again when one happens. */
const SHORT_REFERENCE_DIGITS = 9;
const SHORT_REFERENCE_ATTEMPTS = 5;

const INSERT_COLUMNS = [
  'account_id',
  'short_reference_id',
  'parent_account_id',
  'business_code',
  'entity_type',
  'status',
  'verification_status',
  'review_reason',
  'email',
  'account_name',
  'nickname',
  'country',
  'contact_details',
  'business_details',
  'person_details',
  'registration_address',
  'residential_address',
  'business_address',
  'representatives',
  'documents',
  'tos_acceptance',
  'onboarding_details',
  'capture_window_hours',
] as const;

/** The settings columns of an account (not part of Account: no API shows them). */
export interface AccountSettingsRow {
  account_id: string;
  parent_account_id: string | null;
  capture_window_hours: number;
  settings_version: number;
}

@Injectable()
export class AccountRepository {
  /** Null for an unknown id, including one that is not a uuid at all (no cast error reaches the caller). */
  async findById(executor: Executor, accountId: string): Promise<Account | null> {
    if (!isUuid(accountId)) return null;
    const rows = await executor.query('SELECT * FROM accounts WHERE account_id = $1', [accountId]);
    return rows.length > 0 ? toAccount(rows[0]) : null;
  }

  /**
   * Inserts a new account; `reviewDelayMs` (null: no review) schedules the sandbox decision on the
   * database clock. Returns null when `onConflict: 'ignore'` and the account id already exists.
   */
  async insert(
    executor: Executor,
    account: NewAccount,
    options: { reviewDelayMs: number | null; onConflict?: 'fail' | 'ignore' },
  ): Promise<Account | null> {
    const placeholders = INSERT_COLUMNS.map((_, index) => `$${index + 1}`);
    const reviewParam = `$${INSERT_COLUMNS.length + 1}`;
    const conflict = options.onConflict === 'ignore' ? 'ON CONFLICT DO NOTHING' : 'ON CONFLICT (short_reference_id) DO NOTHING';
    const sql = `
      INSERT INTO accounts (${INSERT_COLUMNS.join(', ')}, review_due_at)
      VALUES (${placeholders.join(', ')},
              CASE WHEN ${reviewParam}::int IS NULL THEN NULL ELSE now() + ${reviewParam}::int * interval '1 millisecond' END)
      ${conflict}
      RETURNING *`;
    for (let attempt = 1; attempt <= SHORT_REFERENCE_ATTEMPTS; attempt += 1) {
      const reference = account.shortReferenceId ?? shortReferenceId({ digits: SHORT_REFERENCE_DIGITS });
      const rows = rowsOf<AccountRow>(
        await executor.query(sql, [...insertValues({ ...account, shortReferenceId: reference }), options.reviewDelayMs]),
      );
      if (rows.length > 0) return toAccount(rows[0]);
      if (options.onConflict === 'ignore') return null;
      if (account.shortReferenceId !== undefined) break;
    }
    throw new Error(`could not allocate a unique short_reference_id for account ${account.accountId}`);
  }

  /** A master and its sub-accounts (not CLOSED): master first, then by creation. */
  async listFamily(
    executor: Executor,
    masterId: string,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; accounts: Account[] }> {
    const scope = `(account_id = $1 OR parent_account_id = $1) AND status <> 'CLOSED'`;
    const [{ total }] = await executor.query(`SELECT count(*)::int AS total FROM accounts WHERE ${scope}`, [masterId]);
    const rows = await executor.query(
      `SELECT * FROM accounts WHERE ${scope}
       ORDER BY (parent_account_id IS NOT NULL), created_at, account_id
       LIMIT $2 OFFSET $3`,
      [masterId, page.limit, page.offset],
    );
    return { total, accounts: rows.map(toAccount) };
  }

  /**
   * Locks up to `limit` accounts whose review is due. SKIP LOCKED lets several service instances poll
   * at once without deciding one account twice; call it inside a transaction.
   */
  async lockDueForReview(executor: Executor, limit: number): Promise<Account[]> {
    const rows = await executor.query(
      `SELECT * FROM accounts WHERE review_due_at <= now()
       ORDER BY review_due_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows.map(toAccount);
  }

  async transitionStatus(
    executor: Executor,
    accountId: string,
    event: AccountStatusEvent,
    set: { review_reason?: string | null; review_due_at?: null } = {},
  ): Promise<Account> {
    return this.transition(executor, accountStatusMachine, 'status', accountId, event, set);
  }

  async transitionVerification(
    executor: Executor,
    accountId: string,
    event: VerificationEvent,
    set: { review_reason?: string | null; review_due_at?: null } = {},
  ): Promise<Account> {
    return this.transition(executor, verificationStatusMachine, 'verification_status', accountId, event, set);
  }

  /**
   * Sets the account's capture window; a change bumps settings_version. Null when the value was already
   * that (nothing changed, nothing to announce) or the account does not exist (the caller tells which).
   */
  async updateCaptureWindow(executor: Executor, accountId: string, hours: number): Promise<AccountSettingsRow | null> {
    if (!isUuid(accountId)) return null;
    const [row] = rowsOf<AccountSettingsRow>(
      await executor.query(
        `UPDATE accounts SET capture_window_hours = $2, settings_version = settings_version + 1
         WHERE account_id = $1 AND capture_window_hours <> $2
         RETURNING account_id, parent_account_id, capture_window_hours, settings_version`,
        [accountId, hours],
      ),
    );
    return row ?? null;
  }

  async findSettings(executor: Executor, accountId: string): Promise<AccountSettingsRow | null> {
    if (!isUuid(accountId)) return null;
    const [row] = rowsOf<AccountSettingsRow>(
      await executor.query(
        'SELECT account_id, parent_account_id, capture_window_hours, settings_version FROM accounts WHERE account_id = $1',
        [accountId],
      ),
    );
    return row ?? null;
  }

  /** Ends a review that can no longer be decided (the account moved on meanwhile). */
  async clearReview(executor: Executor, accountId: string): Promise<void> {
    await executor.query('UPDATE accounts SET review_due_at = NULL, updated_at = now() WHERE account_id = $1', [
      accountId,
    ]);
  }

  private async transition<S extends string, E extends string>(
    executor: Executor,
    machine: StateMachine<S, E>,
    statusColumn: string,
    accountId: string,
    event: E,
    set: Record<string, unknown>,
  ): Promise<Account> {
    const row = await applyTransition<S, E, AccountRow>(executor, machine, {
      table: 'accounts',
      idColumn: 'account_id',
      statusColumn,
      id: accountId,
      event,
      set: { ...set, updated_at: new Date() },
    });
    return toAccount(row);
  }
}

function insertValues(account: NewAccount & { shortReferenceId: string }): unknown[] {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  const byColumn: Record<(typeof INSERT_COLUMNS)[number], unknown> = {
    account_id: account.accountId,
    short_reference_id: account.shortReferenceId,
    parent_account_id: account.parentAccountId,
    business_code: account.businessCode,
    entity_type: account.entityType,
    status: account.status,
    verification_status: account.verificationStatus,
    review_reason: account.reviewReason,
    email: account.email,
    account_name: account.accountName,
    nickname: account.nickname,
    country: account.country,
    contact_details: json(account.contactDetails),
    business_details: json(account.businessDetails),
    person_details: json(account.personDetails),
    registration_address: json(account.registrationAddress),
    residential_address: json(account.residentialAddress),
    business_address: json(account.businessAddress),
    representatives: json(account.representatives),
    documents: json(account.documents),
    tos_acceptance: json(account.tosAcceptance),
    onboarding_details: json(account.onboardingDetails),
    capture_window_hours: account.captureWindowHours,
  };
  return INSERT_COLUMNS.map((column) => byColumn[column]);
}

function toAccount(row: AccountRow): Account {
  return {
    accountId: row.account_id,
    shortReferenceId: row.short_reference_id,
    parentAccountId: row.parent_account_id,
    businessCode: row.business_code,
    entityType: row.entity_type,
    status: row.status,
    verificationStatus: row.verification_status,
    reviewReason: row.review_reason,
    reviewDueAt: row.review_due_at,
    email: row.email,
    accountName: row.account_name,
    nickname: row.nickname,
    country: row.country,
    contactDetails: row.contact_details,
    businessDetails: row.business_details,
    personDetails: row.person_details,
    registrationAddress: row.registration_address,
    residentialAddress: row.residential_address,
    businessAddress: row.business_address,
    representatives: row.representatives,
    documents: row.documents,
    tosAcceptance: row.tos_acceptance,
    onboardingDetails: row.onboarding_details,
    captureWindowHours: row.capture_window_hours,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
