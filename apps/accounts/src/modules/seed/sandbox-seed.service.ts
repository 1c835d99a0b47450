import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { BUSINESS_CODES } from '@paygrid/contracts';
import { Executor, LOGGER } from '@paygrid/platform';
import { ACCOUNTS_CONFIG, AccountsConfig, sandboxSeedEnabled } from '../../config';
import { AccountRepository, NewAccount } from '../accounts/account.repository';
import { DEFAULT_CAPTURE_WINDOW_HOURS } from '../accounts/sub-account.mapper';
import { CredentialService } from '../credentials/credential.service';
import { SANDBOX_SEED_DEFAULTS, SandboxAccountDefaults } from './sandbox-seed.defaults';

/**
 * Ensures the sandbox accounts and keys at boot (docs/accounts.md): a master "Paygrid Sandbox Master"
 * with two sub-accounts, all ACTIVE/APPROVED, and one key each from SANDBOX_* config.
 *
 * Idempotent and safe when several instances boot at once: one transaction under an advisory lock
 * inserts what is missing (ON CONFLICT DO NOTHING) and replaces a key hash when the configured key
 * changed. Existing rows are otherwise left alone, so an operator's changes survive a restart.
 */
const SEED_LOCK = 'paygrid.accounts.sandbox-seed';

type Slot = keyof typeof SANDBOX_SEED_DEFAULTS;

@Injectable()
export class SandboxSeedService implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountRepository,
    private readonly credentials: CredentialService,
    @Inject(ACCOUNTS_CONFIG) private readonly config: AccountsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!sandboxSeedEnabled(this.config)) return;
    const keys = await this.seed();
    this.logger.info({ keys }, 'sandbox accounts and keys ensured');
  }

  /** Returns, per client id, whether its key was created, rotated or already there. */
  async seed(): Promise<Record<string, string>> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [SEED_LOCK]);
      const masterId = SANDBOX_SEED_DEFAULTS.master.accountId;
      const outcome: Record<string, string> = {};
      for (const slot of ['master', 'sub1', 'sub2'] as const) {
        const defaults = SANDBOX_SEED_DEFAULTS[slot];
        const parentId = slot === 'master' ? null : masterId;
        await this.ensureAccount(manager, defaults, parentId);
        const { clientId, apiKey } = this.keyOf(slot);
        outcome[clientId] = await this.credentials.ensureSeededKey(manager, {
          accountId: defaults.accountId,
          clientId,
          apiKey,
          permissions: defaults.permissions,
          label: `sandbox ${slot}`,
        });
      }
      return outcome;
    });
  }

  private keyOf(slot: Slot): { clientId: string; apiKey: string } {
    const config = this.config;
    const bySlot = {
      master: { clientId: config.SANDBOX_MASTER_CLIENT_ID, apiKey: config.SANDBOX_MASTER_API_KEY },
      sub1: { clientId: config.SANDBOX_SUB1_CLIENT_ID, apiKey: config.SANDBOX_SUB1_API_KEY },
      sub2: { clientId: config.SANDBOX_SUB2_CLIENT_ID, apiKey: config.SANDBOX_SUB2_API_KEY },
    };
    return bySlot[slot];
  }

  private async ensureAccount(executor: Executor, defaults: SandboxAccountDefaults, parentId: string | null): Promise<void> {
    await this.accounts.insert(executor, sandboxAccount(defaults, parentId), { reviewDelayMs: null, onConflict: 'ignore' });
    const stored = await this.accounts.findById(executor, defaults.accountId);
    if (!stored || stored.parentAccountId !== parentId) {
      throw new Error(`sandbox account ${defaults.accountId} could not be ensured (id or short reference taken?)`);
    }
  }
}

function sandboxAccount(defaults: SandboxAccountDefaults, parentId: string | null): NewAccount {
  const email = `${defaults.clientId.replace(/_/g, '-')}@sandbox.paygrid.test`;
  return {
    accountId: defaults.accountId,
    shortReferenceId: defaults.shortReferenceId,
    parentAccountId: parentId,
    businessCode: [...BUSINESS_CODES],
    entityType: 'COMPANY',
    status: 'ACTIVE',
    verificationStatus: 'APPROVED',
    reviewReason: null,
    email,
    accountName: defaults.accountName,
    nickname: defaults.nickname,
    country: 'SG',
    contactDetails: { email, phone: '+6560000000' },
    businessDetails: {
      legal_entity_name: defaults.accountName,
      legal_entity_name_english: defaults.accountName,
      registration_number: defaults.shortReferenceId,
      business_structure: 'LIMITED_COMPANY',
      product_description: 'Paygrid sandbox test account',
      merchant_category_code: '5734',
      account_purpose: ['PAYMENT', 'CARD_ISSUING', 'USE_API'],
    },
    personDetails: null,
    registrationAddress: { line1: '1 Sandbox Way', city: 'Singapore', postal_code: '018989', country: 'SG' },
    residentialAddress: null,
    businessAddress: [{ line1: '1 Sandbox Way', city: 'Singapore', postal_code: '018989', country: 'SG' }],
    representatives: [],
    documents: [],
    tosAcceptance: null,
    onboardingDetails: { seeded: true },
    captureWindowHours: DEFAULT_CAPTURE_WINDOW_HOURS,
  };
}
