import { CreatedCredential, CredentialView } from '@paygrid/contracts';
import { Credential } from './credential.types';

/** Domain → wire for credentials. The hash never leaves the service; the key only in `presentCreated`. */
export function presentCredential(credential: Credential): CredentialView {
  return {
    key_id: credential.keyId,
    client_id: credential.clientId,
    account_id: credential.accountId,
    label: credential.label,
    ip_allowlist: [...credential.ipAllowlist],
    permissions: [...credential.permissions],
    created_at: credential.createdAt.toISOString(),
    revoked_at: credential.revokedAt?.toISOString() ?? null,
  };
}

/** The one reply that carries the clear key: it is shown once and never stored. */
export function presentCreated(credential: Credential, apiKey: string): CreatedCredential {
  return { ...presentCredential(credential), api_key: apiKey };
}
