import { ApiError, envelopeA, Errors } from '@paygrid/platform';

/**
 * Refusals of the credential commands. Token issuance answers an unknown client id and a wrong key
 * with the same 401, so the reply cannot be used to find valid client ids; the more specific answers
 * (revoked, IP not allowed, account deactivated) come only after the key itself was proven.
 */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid client id or API key';
export const IP_NOT_ALLOWED_MESSAGE = 'IP not allowed';

export const CredentialErrors = {
  invalidCredentials: (): ApiError => Errors.unauthorized(INVALID_CREDENTIALS_MESSAGE),
  revoked: (): ApiError => Errors.unauthorized('API key revoked'),
  ipNotAllowed: (): ApiError => Errors.unauthorized(IP_NOT_ALLOWED_MESSAGE),
  /** Spec 7.1 user_not_found: the account bound to the key is missing or deactivated. */
  accountDeactivated: (): ApiError =>
    envelopeA('unauthorized_error', 'user_not_found', 'the account bound to this API key is deactivated', 401),
  notFound: (): ApiError => Errors.resourceNotFound('credential'),
  clientIdTaken: (): ApiError => Errors.invalidRequest('client_id is already in use'),
  chosenSecretsInProduction: (): ApiError =>
    Errors.invalidRequest('client_id and api_key can be chosen only outside production (sandbox seed)'),
  badAllowlistEntry: (index: number): ApiError =>
    Errors.invalidRequest(`ip_allowlist[${index}]: must be an IPv4 or IPv6 address or CIDR range`),
  revokeTarget: (): ApiError => Errors.invalidRequest('exactly one of key_id and client_id is required'),
};
