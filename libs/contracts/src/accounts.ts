/**
 * Events and wire shapes of the accounts service (connected accounts and API credentials); its
 * commands are declared in accounts.commands.ts. Shapes on the wire follow spec 2.10 / 4.8–4.10 and
 * wire-compat section 10.
 */
export const AccountEvents = {
  created: 'account.created',
  statusUpdated: 'account.status.updated',
  verificationUpdated: 'account.verification_status.updated',
  credentialCreated: 'account.credential.created',
  credentialRevoked: 'account.credential.revoked',
  /** OPERATIONS: the account's platform settings (not wire fields), for the services that apply them. */
  settingsUpdated: 'account.settings.updated',
} as const;

export type BusinessCode = 'BANKING' | 'ACQUIRING' | 'ISSUING' | 'RAMP';
export const BUSINESS_CODES: readonly BusinessCode[] = ['BANKING', 'ACQUIRING', 'ISSUING', 'RAMP'];
export type AccountStatus = 'ACTIVE' | 'PROCESSING' | 'INACTIVE' | 'CLOSED';
export type VerificationStatus = 'APPROVED' | 'PENDING' | 'REJECT' | 'EXPIRED' | 'RETURN';
export type EntityType = 'COMPANY' | 'INDIVIDUAL';

/**
 * The Account object of spec 2.10 (list item, retrieve response, and the `data` of account events).
 * Two variants share the common fields: COMPANY adds business_details and the company addresses and
 * representatives; INDIVIDUAL adds person_details and residential_address (the spec does not show that
 * variant; we follow the SDKs' legacy individual create, wire-compat 10.4). Deliberate wire spellings:
 * representatives carry `other_doucments` (the spec's), and the nickname is sent both as `nickname`
 * and as the SDK's `nick_name`.
 */
export interface AccountAddress {
  line1?: string;
  line2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
}

/** A document reference; `front`/`back` are what the client uploaded (file ids or data). */
export interface AccountDocument {
  type: string;
  front: string;
  back?: string;
}

export interface AccountContactDetails {
  email?: string;
  phone?: string;
}

export interface RepresentativeView {
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
  residential_address: AccountAddress;
  as_applicant: boolean;
  share_percentage?: string;
  other_doucments: AccountDocument[];
}

interface AccountViewBase {
  account_id: string;
  short_reference_id: string;
  business_code: BusinessCode[];
  email: string;
  account_name: string;
  nickname: string | null;
  nick_name: string | null;
  country: string;
  entity_type: EntityType;
  status: AccountStatus;
  verification_status: VerificationStatus;
  /** Empty unless a review was not approved. */
  review_reason: string;
  contact_details: AccountContactDetails;
  documents: AccountDocument[];
  tos_acceptance: Record<string, unknown> | null;
  create_time: string;
  update_time: string;
}

export interface CompanyAccountView extends AccountViewBase {
  entity_type: 'COMPANY';
  business_details: Record<string, unknown>;
  registration_address: AccountAddress | null;
  business_address: AccountAddress[];
  representatives: RepresentativeView[];
}

export interface IndividualAccountView extends AccountViewBase {
  entity_type: 'INDIVIDUAL';
  person_details: Record<string, unknown>;
  residential_address: AccountAddress | null;
}

export type AccountView = CompanyAccountView | IndividualAccountView;

/**
 * The account's platform settings (no API shows them): the `data` of account.settings.updated and the
 * reply of accounts.update_settings. `settings_version` grows by one with every change of the account's
 * settings, so a consumer keeps the highest it has seen and ignores an older or repeated event.
 */
export interface AccountSettingsView {
  account_id: string;
  /** Decisions §7: how long a manual-capture authorisation waits before it is captured, 1 to 24. */
  capture_window_hours: number;
  settings_version: number;
}

export interface AccountPage {
  total_pages: number;
  total_items: number;
  data: AccountView[];
}

/** Wire-compat 10.3 response of create sub-account. */
export interface CreatedSubAccountView {
  account_id: string;
  short_reference_id: string;
  status: AccountStatus;
  business_type: BusinessCode;
  entity_type: EntityType;
  nickname: string | null;
}

export interface AdditionalDocument {
  profile_key: string;
  profile_name: string;
  profile_option: 0 | 1;
}

export interface ResolvedAccount {
  account_id: string;
  master_account_id: string;
  short_reference_id: string;
}

export interface VerifiedCredential {
  key_id: string;
  client_id: string;
  account_id: string;
  short_reference_id: string;
  /** "0" for a master account, else the master's account_id (JWT claim parent_entity_id). */
  parent_account_id: string;
  master_account_id: string;
  business_codes: BusinessCode[];
  permissions: string[];
  /** The key's IP allow-list (empty: any IP); the gateway re-checks it on every request. */
  ip_allowlist: string[];
}

export const CREDENTIAL_PERMISSIONS = ['sensitive_card_details'] as const;
export type CredentialPermission = (typeof CREDENTIAL_PERMISSIONS)[number];

export interface CredentialView {
  key_id: string;
  client_id: string;
  account_id: string;
  label: string | null;
  ip_allowlist: string[];
  permissions: string[];
  created_at: string;
  revoked_at: string | null;
}
export interface CreatedCredential extends CredentialView {
  /** Shown once; only its hash is stored. */
  api_key: string;
}

/** Redis set of revoked key ids: the gateway checks it on every request so revocation is immediate. */
export const REVOKED_KEYS_REDIS_KEY = 'paygrid:credentials:revoked';
