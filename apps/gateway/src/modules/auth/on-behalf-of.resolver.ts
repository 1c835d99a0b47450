import { Inject, Injectable } from '@nestjs/common';
import { AccountCommand, ResolvedAccount } from '@paygrid/contracts';
import { isUuid } from '@paygrid/ids';
import { CommandBus, Errors } from '@paygrid/platform';
import { COMMAND_BUS } from '../commands/command-bus.provider';

/**
 * Resolves `x-on-behalf-of` to the acting account. Without the header (or with it empty) the caller
 * acts as itself. With it, the accounts service decides whether the caller may act for that account;
 * its positive answers are cached briefly per (caller, target) so a busy merchant pays the round trip
 * once per TTL, and account events evict entries when a sub-account is deactivated.
 *
 * The uuid rule is libs/ids' `isUuid`, the same the accounts service validates the lookup with: any
 * well-formed uuid is looked up, so one that names no sub-account of the caller (a v1 uuid included) is
 * `sub_account_not_found`; only a value that is not a uuid at all is a validation error.
 */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 10_000;

export interface Caller {
  accountId: string;
  masterAccountId: string;
  clientId: string;
}

@Injectable()
export class OnBehalfOfResolver {
  private readonly cache = new Map<string, { account: ResolvedAccount; expiresAt: number }>();

  constructor(@Inject(COMMAND_BUS) private readonly bus: CommandBus) {}

  async resolve(caller: Caller, header: string | string[] | undefined, correlationId?: string): Promise<ResolvedAccount> {
    const known = this.resolveKnown(caller, header);
    if (known) return known;
    const target = targetOf(header) ?? '';
    if (!isUuid(target)) throw Errors.invalidRequest('x-on-behalf-of must be the uuid of a sub-account');
    const account = await this.bus.execute(
      AccountCommand.resolveOnBehalfOf,
      { target_account_id: target.toLowerCase() },
      {
        actor: {
          account_id: caller.accountId,
          master_account_id: caller.masterAccountId,
          caller_account_id: caller.accountId,
          client_id: caller.clientId,
          permissions: [],
        },
        correlationId,
      },
    );
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    this.cache.set(cacheKeyOf(caller, target), { account, expiresAt: Date.now() + CACHE_TTL_MS });
    return account;
  }

  /**
   * The acting account when it is known without asking the accounts service (no header, the caller itself, or
   * a grant still cached); undefined otherwise, also for a malformed header, which resolve() then refuses.
   */
  resolveKnown(caller: Caller, header: string | string[] | undefined): ResolvedAccount | undefined {
    const target = targetOf(header);
    if (!target || target === caller.accountId) {
      return { account_id: caller.accountId, master_account_id: caller.masterAccountId, short_reference_id: '' };
    }
    const cached = this.cache.get(cacheKeyOf(caller, target));
    return cached && cached.expiresAt > Date.now() ? cached.account : undefined;
  }

  /** Drops every cached grant involving this account (called on account status events). */
  evict(accountId: string): void {
    for (const key of this.cache.keys()) {
      if (key.includes(accountId)) this.cache.delete(key);
    }
  }
}

function targetOf(header: string | string[] | undefined): string | undefined {
  return (Array.isArray(header) ? header[0] : header)?.trim();
}

function cacheKeyOf(caller: Caller, target: string): string {
  return `${caller.accountId}:${target.toLowerCase()}`;
}
