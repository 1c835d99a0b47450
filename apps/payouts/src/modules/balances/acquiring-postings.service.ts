import { Injectable } from '@nestjs/common';
import { Executor } from '@paygrid/platform';
import { AcquiringFact, needsFunds, referencesOf } from './acquiring-facts';
import { fundsKey, planBatch } from './batch-plan';
import { MerchantLedger } from './merchant-ledger';

/**
 * Money in from acquiring: the entries of a batch of facts (posting-rules.ts, planned by batch-plan.ts) posted
 * inside the caller's transaction, which also claimed the facts' events in the inbox and took their merchants'
 * intake lock (intake-claim.ts), so each event applies once.
 *
 * Round trips: one statement for all the entries; plus one, before it, that locks the merchants' accounts
 * and says which references are stored, when a fact splits on funds (settlements, refunds). Captures alone
 * need neither.
 */
@Injectable()
export class AcquiringPostings {
  constructor(private readonly ledger: MerchantLedger) {}

  async apply(executor: Executor, facts: readonly AcquiringFact[]): Promise<void> {
    if (facts.length === 0) return;
    const snapshot = facts.some(needsFunds)
      ? await this.ledger.lockIntake(executor, accountSetsOf(facts), facts.flatMap(referencesOf))
      : undefined;
    await this.ledger.postAll(executor, planBatch(facts, snapshot));
  }
}

/** Each merchant and currency the facts touch, once. */
export function accountSetsOf(facts: readonly AcquiringFact[]): { merchantId: string; currency: string }[] {
  const sets = new Map<string, { merchantId: string; currency: string }>();
  for (const { merchantId, currency } of facts) sets.set(fundsKey(merchantId, currency), { merchantId, currency });
  return [...sets.values()];
}
