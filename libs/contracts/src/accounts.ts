/**
 * Commands and events of the accounts service (connected accounts and API credentials).
 * Shapes on the wire follow spec 2.10 / 4.8–4.10 and wire-compat section 10.
 */
export const AccountCommands = {
  list: 'accounts.list',
  retrieve: 'accounts.retrieve',
  createSubAccount: 'accounts.create_sub_account',
  getAdditional: 'accounts.get_additional',
  /** Gateway: may the actor act for `target_account_id` (x-on-behalf-of)? */
  resolveOnBehalfOf: 'accounts.resolve_on_behalf_of',
  /** Gateway token issuance: verify client id + API key (+ caller IP). */
  verifyCredentials: 'accounts.credentials.verify',
  /** Operators (CLI). */
  createCredential: 'accounts.credentials.create',
  listCredentials: 'accounts.credentials.list',
  revokeCredential: 'accounts.credentials.revoke',
} as const;

export const AccountEvents = {
  created: 'account.created',
  statusUpdated: 'account.status.updated',
  verificationUpdated: 'account.verification_status.updated',
  credentialCreated: 'account.credential.created',
  credentialRevoked: 'account.credential.revoked',
} as const;

export type BusinessCode = 'BANKING' | 'ACQUIRING' | 'ISSUING' | 'RAMP';
export const BUSINESS_CODES: readonly BusinessCode[] = ['BANKING', 'ACQUIRING', 'ISSUING', 'RAMP'];
export type AccountStatus = 'ACTIVE' | 'PROCESSING' | 'INACTIVE' | 'CLOSED';
export type VerificationStatus = 'APPROVED' | 'PENDING' | 'REJECT' | 'EXPIRED' | 'RETURN';
export type EntityType = 'COMPANY' | 'INDIVIDUAL';

export interface ListAccountsPayload {
  page_size: number;
  page_number: number;
}
export interface RetrieveAccountPayload {
  account_id: string;
  business_code: BusinessCode;
}
export interface GetAdditionalPayload {
  country: string;
  business_code: BusinessCode;
}
export interface AdditionalDocument {
  profile_key: string;
  profile_name: string;
  profile_option: 0 | 1;
}
export interface ResolveOnBehalfOfPayload {
  target_account_id: string;
}
export interface ResolvedAccount {
  account_id: string;
  master_account_id: string;
  short_reference_id: string;
}

export interface VerifyCredentialsPayload {
  client_id: string;
  api_key: string;
  /** The caller's IP as the gateway saw it; checked against the key's allow-list. */
  ip: string;
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

export interface CreateCredentialPayload {
  account_id: string;
  label?: string;
  ip_allowlist?: string[];
  permissions?: CredentialPermission[];
  /** Sandbox seed only: use this client id and key instead of random ones. */
  client_id?: string;
  api_key?: string;
}
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
export interface RevokeCredentialPayload {
  key_id?: string;
  client_id?: string;
}

/** Redis set of revoked key ids: the gateway checks it on every request so revocation is immediate. */
export const REVOKED_KEYS_REDIS_KEY = 'paygrid:credentials:revoked';
