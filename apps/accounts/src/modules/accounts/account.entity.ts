import { Column, Entity, PrimaryColumn } from 'typeorm';
import {
  AccountAddress,
  AccountStatus,
  BusinessCode,
  ContactDetails,
  DocumentRef,
  EntityType,
  JsonObject,
  RepresentativeView,
  VerificationStatus,
} from '@paygrid/contracts';

/** The stored representative: spelled correctly here; the presenter writes the spec's `other_doucments`. */
export type Representative = Omit<RepresentativeView, 'other_doucments'> & { other_documents: DocumentRef[] };
export type Address = AccountAddress;
export type { ContactDetails, DocumentRef, JsonObject };

/**
 * One account, master or sub-account, of either entity variant (COMPANY or INDIVIDUAL), as stored.
 * The nested documents keep the wire's snake_case keys (they are stored and served whole); the
 * columns are camelCase here and snake_case in SQL. All SQL lives in AccountRepository.
 */
@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryColumn('uuid', { name: 'account_id' })
  accountId!: string;

  @Column('text', { name: 'short_reference_id', unique: true })
  shortReferenceId!: string;

  /** Null for a master account. */
  @Column('uuid', { name: 'parent_account_id', nullable: true })
  parentAccountId!: string | null;

  @Column('text', { name: 'business_code', array: true })
  businessCode!: BusinessCode[];

  @Column('text', { name: 'entity_type' })
  entityType!: EntityType;

  @Column('text')
  status!: AccountStatus;

  @Column('text', { name: 'verification_status' })
  verificationStatus!: VerificationStatus;

  @Column('text', { name: 'review_reason', nullable: true })
  reviewReason!: string | null;

  /** When the sandbox review decides; null once decided. Durable, so a restart does not lose it. */
  @Column('timestamptz', { name: 'review_due_at', nullable: true })
  reviewDueAt!: Date | null;

  @Column('text')
  email!: string;

  @Column('text', { name: 'account_name' })
  accountName!: string;

  @Column('text', { nullable: true })
  nickname!: string | null;

  @Column('text')
  country!: string;

  @Column('jsonb', { name: 'contact_details' })
  contactDetails!: ContactDetails;

  /** COMPANY variant. */
  @Column('jsonb', { name: 'business_details', nullable: true })
  businessDetails!: JsonObject | null;

  /** INDIVIDUAL variant. */
  @Column('jsonb', { name: 'person_details', nullable: true })
  personDetails!: JsonObject | null;

  @Column('jsonb', { name: 'registration_address', nullable: true })
  registrationAddress!: Address | null;

  @Column('jsonb', { name: 'residential_address', nullable: true })
  residentialAddress!: Address | null;

  @Column('jsonb', { name: 'business_address' })
  businessAddress!: Address[];

  @Column('jsonb')
  representatives!: Representative[];

  @Column('jsonb')
  documents!: DocumentRef[];

  @Column('jsonb', { name: 'tos_acceptance', nullable: true })
  tosAcceptance!: JsonObject | null;

  /** What onboarding collected that the Account object does not show (expected activity, inherit, ...). */
  @Column('jsonb', { name: 'onboarding_details' })
  onboardingDetails!: JsonObject;

  /** Acquiring's manual-capture window, 1–24 hours (decisions §7); stored now, exposed later. */
  @Column('integer', { name: 'capture_window_hours' })
  captureWindowHours!: number;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}

/** The master account of `account` (itself for a master). */
export function masterIdOf(account: Pick<AccountEntity, 'accountId' | 'parentAccountId'>): string {
  return account.parentAccountId ?? account.accountId;
}

export function isMaster(account: Pick<AccountEntity, 'parentAccountId'>): boolean {
  return account.parentAccountId === null;
}
