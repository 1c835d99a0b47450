import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Executor } from '@paygrid/platform';
import { Account } from './account.types';
import { recordAccountEvent } from './account.events';
import { AccountRepository } from './account.repository';
import { decideSandboxReview } from './account-review.rules';
import { accountStatusMachine, verificationStatusMachine } from './account.states';

/**
 * Decides the sandbox reviews that are due. The due time lives in Postgres (`review_due_at`), so a
 * restart loses nothing: whichever instance polls next picks the account up. Each due account is
 * locked with SKIP LOCKED, moved through both state machines, and its two events
 * (`account.status.updated`, `account.verification_status.updated`) are written to the outbox in the
 * same transaction.
 */
export type ReviewOutcome = 'APPROVED' | 'REJECTED' | 'SKIPPED';

@Injectable()
export class AccountReviewService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountRepository,
  ) {}

  /** Decides up to `limit` due reviews; returns how many were handled. */
  async reviewDue(limit = 20): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const due = await this.accounts.lockDueForReview(manager, limit);
      for (const account of due) await this.review(manager, account);
      return due.length;
    });
  }

  /** `account` must be locked by the caller's transaction (lockDueForReview does that). */
  async review(executor: Executor, account: Account): Promise<ReviewOutcome> {
    const decision = decideSandboxReview(account);
    const event = decision.outcome;
    const decidable =
      accountStatusMachine.canTransition(account.status, event) &&
      verificationStatusMachine.canTransition(account.verificationStatus, event);
    if (!decidable) {
      // The account moved on meanwhile (an operator closed it): nothing left to decide.
      await this.accounts.clearReview(executor, account.accountId);
      return 'SKIPPED';
    }
    const set = { review_reason: decision.outcome === 'REJECT' ? decision.reason : null, review_due_at: null };
    await this.accounts.transitionStatus(executor, account.accountId, event, set);
    const decided = await this.accounts.transitionVerification(executor, account.accountId, event);
    await recordAccountEvent(executor, 'account.status.updated', decided);
    await recordAccountEvent(executor, 'account.verification_status.updated', decided);
    return event === 'APPROVE' ? 'APPROVED' : 'REJECTED';
  }
}
