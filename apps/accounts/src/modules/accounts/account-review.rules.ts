import { Account } from './account.types';

/**
 * The sandbox's stand-in for a compliance review, deterministic so merchants can test both outcomes
 * (decisions §6): an account is rejected when its nickname, account name or legal entity name
 * contains the word REJECT in capitals (for example nickname "REJECT me"); every other account is
 * approved. A rejected account becomes INACTIVE with verification REJECT and a review_reason.
 */
export const REJECT_TRIGGER = 'REJECT';

export type ReviewSubject = Pick<Account, 'nickname' | 'accountName' | 'businessDetails'>;

export type ReviewDecision = { outcome: 'APPROVE' } | { outcome: 'REJECT'; reason: string };

export function decideSandboxReview(account: ReviewSubject): ReviewDecision {
  const legalNames = [account.businessDetails?.legal_entity_name, account.businessDetails?.legal_entity_name_english];
  const named: [string, unknown][] = [
    ['nickname', account.nickname],
    ['account name', account.accountName],
    ['legal entity name', legalNames.find((name) => typeof name === 'string' && name.includes(REJECT_TRIGGER))],
  ];
  const trigger = named.find(([, value]) => typeof value === 'string' && value.includes(REJECT_TRIGGER));
  if (!trigger) return { outcome: 'APPROVE' };
  return {
    outcome: 'REJECT',
    reason: `Sandbox review rejected the account: its ${trigger[0]} contains "${REJECT_TRIGGER}"`,
  };
}
