/**
 * One API credential of an account: a client id (public) and the HMAC of its API key (the key itself
 * is never stored), with the caller IPs it accepts and its permissions. Revoked credentials stay, so
 * their key ids can be re-published to the gateway's revocation set. All SQL: CredentialRepository.
 */
export interface Credential {
  /** `key_<time-sortable id>`: names the key in JWTs, logs and the revocation set. */
  keyId: string;
  clientId: string;
  accountId: string;
  /** Lower-case hex HMAC-SHA256 (api-key.hasher.ts). */
  keyHash: string;
  /** Addresses and CIDR ranges; empty allows every caller. */
  ipAllowlist: string[];
  permissions: string[];
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

/** An `api_credentials` row as Postgres returns it. */
export type CredentialRow = {
  key_id: string;
  client_id: string;
  account_id: string;
  key_hash: string;
  ip_allowlist: string[];
  permissions: string[];
  label: string | null;
  created_at: Date;
  revoked_at: Date | null;
};
