import { Column, Entity, PrimaryColumn } from 'typeorm';
import { AccountStatus, BusinessCode, EntityType, VerificationStatus } from '@paygrid/contracts';

/**
 * One account, master or sub-account, of either entity variant (COMPANY or INDIVIDUAL), as stored.
 * The nested documents keep the wire's snake_case keys (they are stored and served whole); the
 * columns are camelCase here and snake_case in SQL. All SQL lives in AccountRepository.
 */
export type JsonObject = { [key: string]: unknown };

export interface Address {
  line1?: string;
  line2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
}

/** A stored document reference; `front`/`back` are what the client uploaded (file ids or data). */
export interface DocumentRef {
  type: string;
  front: string;
  back?: string;
}

export interface Representative {
  representative_id: string;
  roles: string[];
  first_name: string;
  last_name: string;
  name_in_other_language?: string;
  email?: string;
  phone?: string;
  job_title?: string;
  nationality: string;
  date_of_birth: string;
  tax_number?: string;
  identification: { type: string; id_number: string; documents: { front?: string; back?: string } };
  residential_address: Address;
  as_applicant: boolean;
  share_percentage?: string;
  /** Spelled correctly in storage; the presenter writes the spec's `other_doucments`. */
  other_documents: DocumentRef[];
}

export interface ContactDetails {
  email?: string;
  phone?: string;
}

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
