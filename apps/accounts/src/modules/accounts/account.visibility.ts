import { Account, isMaster } from './account.types';

/**
 * Who may see or act for which account. The one rule set, shared by list, retrieve and the gateway's
 * on-behalf-of check, so they cannot drift apart:
 * - an account always sees itself;
 * - a master also sees its own sub-accounts;
 * - a sub-account sees nothing else: never its master, never a sibling;
 * - only a master may act for another account, and only for its own sub-account that is neither
 *   INACTIVE nor CLOSED.
 * Decided on the stored parent link, not on what the actor claims about itself.
 */
type Node = Pick<Account, 'accountId' | 'parentAccountId'>;

export function canView(acting: Node, target: Node): boolean {
  if (target.accountId === acting.accountId) return true;
  return isMaster(acting) && target.parentAccountId === acting.accountId;
}

export function canActFor(caller: Node, target: Node & Pick<Account, 'status'>): boolean {
  if (!isMaster(caller) || target.parentAccountId !== caller.accountId) return false;
  return target.status !== 'INACTIVE' && target.status !== 'CLOSED';
}

/** Accounts a list shows: the master's family, or just the sub-account itself. */
export type ListScope = { kind: 'family'; masterId: string } | { kind: 'self'; accountId: string };

export function listScopeOf(acting: Node): ListScope {
  return isMaster(acting) ? { kind: 'family', masterId: acting.accountId } : { kind: 'self', accountId: acting.accountId };
}

/** CLOSED accounts are reported as missing ("account not found or deactivated", spec 7.1). */
export function isListed(account: Pick<Account, 'status'>): boolean {
  return account.status !== 'CLOSED';
}
