import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  AccountEvents,
  CreateCredentialPayload,
  CreatedCredential,
  CredentialView,
  EventTopics,
  ListCredentialsPayload,
  RevokeCredentialPayload,
  VerifiedCredential,
  VerifyCredentialsPayload,
} from '@paygrid/contracts';
import { appendToOutbox, Executor, ipAllowed, isValidAllowlistEntry } from '@paygrid/platform';
import { newId } from '@paygrid/ids';
import { ACCOUNTS_CONFIG, AccountsConfig } from '../../config';
import { AccountErrors } from '../accounts/account.errors';
import { Account, masterIdOf } from '../accounts/account.types';
import { AccountRepository } from '../accounts/account.repository';
import { ApiKeyHasher, newApiKey, newClientId } from './api-key.hasher';
import { Credential } from './credential.types';
import { CredentialErrors } from './credential.errors';
import { presentCreated, presentCredential } from './credential.presenter';
import { CredentialRepository } from './credential.repository';
import { RevokedKeysSet } from './revoked-keys.set';

/**
 * API credentials: issue (operators, via the CLI), list, revoke, and verify (the gateway's token
 * issuance). A clear key exists only in the create reply and in the verify request; it is hashed at
 * once and never logged, stored, or put in an event.
 */
export const KEY_ID_PREFIX = 'key';
/** A random client id colliding is ~impossible; a few attempts turn "impossible" into "never". */
const CLIENT_ID_ATTEMPTS = 3;

export interface SeededKey {
  accountId: string;
  clientId: string;
  apiKey: string;
  permissions: readonly string[];
  label: string;
}

@Injectable()
export class CredentialService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly credentials: CredentialRepository,
    private readonly accounts: AccountRepository,
    private readonly hasher: ApiKeyHasher,
    private readonly revokedKeys: RevokedKeysSet,
    @Inject(ACCOUNTS_CONFIG) private readonly config: Pick<AccountsConfig, 'NODE_ENV'>,
  ) {}

  /** Order matters: nothing but "invalid" is said until the key itself has been proven. */
  async verify(request: VerifyCredentialsPayload): Promise<VerifiedCredential> {
    const credential = await this.credentials.findByClientIdWithAccount(this.dataSource, request.client_id);
    const keyMatches = this.hasher.matches(request.api_key, credential?.keyHash ?? null);
    if (!credential || !keyMatches) throw CredentialErrors.invalidCredentials();
    if (credential.revokedAt !== null) throw CredentialErrors.revoked();
    if (!ipAllowed(request.ip, credential.ipAllowlist)) throw CredentialErrors.ipNotAllowed();
    const account = credential.account;
    if (account.status === 'INACTIVE' || account.status === 'CLOSED') throw CredentialErrors.accountDeactivated();
    return {
      key_id: credential.keyId,
      client_id: credential.clientId,
      account_id: credential.accountId,
      short_reference_id: account.shortReferenceId,
      parent_account_id: account.parentAccountId ?? '0',
      master_account_id: account.parentAccountId ?? credential.accountId,
      business_codes: [...account.businessCode],
      permissions: [...credential.permissions],
      ip_allowlist: [...credential.ipAllowlist],
    };
  }

  /**
   * Not run through the command ledger on purpose: the ledger stores each reply for replay, and this
   * reply holds the clear key, which must exist nowhere after it is shown. A repeated create therefore
   * issues a second key; an operator revokes whichever is not used.
   */
  async create(request: CreateCredentialPayload): Promise<CreatedCredential> {
    const chosen = request.client_id !== undefined || request.api_key !== undefined;
    if (chosen && this.config.NODE_ENV === 'production') throw CredentialErrors.chosenSecretsInProduction();
    const ipAllowlist = this.checkedAllowlist(request.ip_allowlist ?? []);
    const apiKey = request.api_key ?? newApiKey();

    return this.dataSource.transaction(async (manager) => {
      const account = await this.liveAccount(manager, request.account_id);
      const credential = await this.insertWithFreshClientId(manager, {
        keyId: newId(KEY_ID_PREFIX),
        clientId: request.client_id,
        accountId: account.accountId,
        keyHash: this.hasher.hash(apiKey),
        ipAllowlist,
        permissions: [...(request.permissions ?? [])],
        label: request.label ?? null,
      });
      await this.recordEvent(manager, AccountEvents.credentialCreated, credential, account);
      return presentCreated(credential, apiKey);
    });
  }

  async list(request: ListCredentialsPayload): Promise<CredentialView[]> {
    const found = await this.credentials.list(this.dataSource, request.account_id);
    return found.map(presentCredential);
  }

  /**
   * Runs in the command-ledger transaction. The key id goes into the gateway's Redis set before the
   * transaction commits: if the commit then fails, the key is refused a little early (the operator
   * sees the error and repeats), never accepted after the operator was told it is revoked.
   */
  async revoke(request: RevokeCredentialPayload, manager: Executor): Promise<CredentialView> {
    if ((request.key_id === undefined) === (request.client_id === undefined)) throw CredentialErrors.revokeTarget();
    const ref = { keyId: request.key_id, clientId: request.client_id };
    const revoked = await this.credentials.revoke(manager, ref);
    if (!revoked) {
      const existing = await this.credentials.findByKeyOrClientId(manager, ref);
      if (!existing) throw CredentialErrors.notFound();
      await this.revokedKeys.add([existing.keyId]);
      return presentCredential(existing);
    }
    const account = await this.accounts.findById(manager, revoked.accountId);
    if (account) await this.recordEvent(manager, AccountEvents.credentialRevoked, revoked, account);
    await this.revokedKeys.add([revoked.keyId]);
    return presentCredential(revoked);
  }

  /** Re-publishes every revoked key id from Postgres (the source of truth) to the gateway's set. */
  async syncRevokedSet(): Promise<number> {
    const keyIds = await this.credentials.revokedKeyIds(this.dataSource);
    await this.revokedKeys.add(keyIds);
    return keyIds.length;
  }

  /**
   * The sandbox seed's keys: create when missing, replace the hash when the configured key changed
   * (key rotation through the environment). A key an operator revoked stays revoked.
   */
  async ensureSeededKey(executor: Executor, seeded: SeededKey): Promise<'created' | 'rotated' | 'unchanged'> {
    const existing = await this.credentials.findByClientId(executor, seeded.clientId);
    const keyHash = this.hasher.hash(seeded.apiKey);
    if (!existing) {
      await this.insertWithFreshClientId(executor, {
        keyId: newId(KEY_ID_PREFIX),
        clientId: seeded.clientId,
        accountId: seeded.accountId,
        keyHash,
        ipAllowlist: [],
        permissions: [...seeded.permissions],
        label: seeded.label,
      });
      return 'created';
    }
    if (existing.accountId !== seeded.accountId) {
      throw new Error(`sandbox client id ${seeded.clientId} already belongs to account ${existing.accountId}`);
    }
    if (this.hasher.matches(seeded.apiKey, existing.keyHash)) return 'unchanged';
    await this.credentials.replaceHash(executor, existing.keyId, keyHash);
    return 'rotated';
  }

  private checkedAllowlist(entries: string[]): string[] {
    const trimmed = entries.map((entry) => entry.trim());
    const bad = trimmed.findIndex((entry) => !isValidAllowlistEntry(entry));
    if (bad >= 0) throw CredentialErrors.badAllowlistEntry(bad);
    return [...new Set(trimmed)];
  }

  private async liveAccount(executor: Executor, accountId: string): Promise<Account> {
    const account = await this.accounts.findById(executor, accountId);
    if (!account || account.status === 'CLOSED') throw AccountErrors.notFound();
    return account;
  }

  /** A chosen client id that is taken is refused; a random one is drawn again. */
  private async insertWithFreshClientId(
    executor: Executor,
    credential: Omit<Credential, 'clientId' | 'createdAt' | 'revokedAt'> & { clientId?: string },
  ): Promise<Credential> {
    for (let attempt = 1; attempt <= CLIENT_ID_ATTEMPTS; attempt += 1) {
      const inserted = await this.credentials.insert(executor, { ...credential, clientId: credential.clientId ?? newClientId() });
      if (inserted) return inserted;
      if (credential.clientId !== undefined) throw CredentialErrors.clientIdTaken();
    }
    throw new Error('could not draw an unused client id');
  }

  private async recordEvent(
    executor: Executor,
    eventName: (typeof AccountEvents)['credentialCreated' | 'credentialRevoked'],
    credential: Credential,
    account: Account,
  ): Promise<void> {
    await appendToOutbox(executor, {
      topic: EventTopics.accounts,
      event_name: eventName,
      event_type: 'OPERATIONS',
      source_id: credential.keyId,
      account_id: account.accountId,
      master_account_id: masterIdOf(account),
      data: presentCredential(credential),
    });
  }
}
