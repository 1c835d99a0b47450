import {
  AccountAddress,
  AccountContactDetails,
  AccountDocument,
  AccountStatus,
  BusinessCode,
  EntityType,
  RepresentativeView,
  VerificationStatus,
} from '@paygrid/contracts';

/**
 * One account, master or sub-account, of either entity variant (COMPANY or INDIVIDUAL), as the
 * service works with it: camelCase columns of the `accounts` row (account.repository.ts maps them).
 * The nested documents keep the wire's snake_case keys: they are stored and served whole.
 */
export type JsonObject = { [key: string]: unknown };

/** Spelled correctly in storage; the presenter writes the spec's `other_doucments`. */
export type Representative = Omit<RepresentativeView, 'other_doucments'> & {
  other_documents: AccountDocument[];
};

export interface Account {
  accountId: string;
  shortReferenceId: string;
  /** Null for a master account. */
  parentAccountId: string | null;
  businessCode: BusinessCode[];
  entityType: EntityType;
  status: AccountStatus;
  verificationStatus: VerificationStatus;
  reviewReason: string | null;
  /** When the sandbox review decides; null once decided. Durable, so a restart does not lose it. */
  reviewDueAt: Date | null;
  email: string;
  accountName: string;
  nickname: string | null;
  country: string;
  contactDetails: AccountContactDetails;
  /** COMPANY variant. */
  businessDetails: JsonObject | null;
  /** INDIVIDUAL variant. */
  personDetails: JsonObject | null;
  registrationAddress: AccountAddress | null;
  residentialAddress: AccountAddress | null;
  businessAddress: AccountAddress[];
  representatives: Representative[];
  documents: AccountDocument[];
  tosAcceptance: JsonObject | null;
  /** What onboarding collected that the Account object does not show (expected activity, inherit, ...). */
  onboardingDetails: JsonObject;
  /** Acquiring's manual-capture window, 1–24 hours (decisions §7); stored now, exposed later. */
  captureWindowHours: number;
  createdAt: Date;
  updatedAt: Date;
}

/** An `accounts` row as Postgres returns it (account.repository.ts maps it to Account). */
export type AccountRow = {
  account_id: string;
  short_reference_id: string;
  parent_account_id: string | null;
  business_code: BusinessCode[];
  entity_type: EntityType;
  status: AccountStatus;
  verification_status: VerificationStatus;
  review_reason: string | null;
  review_due_at: Date | null;
  email: string;
  account_name: string;
  nickname: string | null;
  country: string;
  contact_details: AccountContactDetails;
  business_details: JsonObject | null;
  person_details: JsonObject | null;
  registration_address: AccountAddress | null;
  residential_address: AccountAddress | null;
  business_address: AccountAddress[];
  representatives: Representative[];
  documents: AccountDocument[];
  tos_acceptance: JsonObject | null;
  onboarding_details: JsonObject;
  capture_window_hours: number;
  created_at: Date;
  updated_at: Date;
};

/** The master account of `account` (itself for a master). */
export function masterIdOf(account: Pick<Account, 'accountId' | 'parentAccountId'>): string {
  return account.parentAccountId ?? account.accountId;
}

export function isMaster(account: Pick<Account, 'parentAccountId'>): boolean {
  return account.parentAccountId === null;
}
