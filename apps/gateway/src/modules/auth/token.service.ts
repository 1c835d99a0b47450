import { createSecretKey, KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { VerifiedCredential } from '@paygrid/contracts';
import { APP_CONFIG, Errors } from '@paygrid/platform';
import { GatewayConfig } from '../../config';

/**
 * Auth tokens are HS256 JWTs (decisions §2): the official SDKs decode the claims, and the gateway
 * verifies them locally on every request without a round trip. Besides the SDK's claims the token
 * carries what the gateway needs per request: key id (for revocation), master account, permissions
 * and the key's IP allow-list (a changed allow-list applies from the next token).
 */
export interface TokenClaims {
  entity_id: string;
  short_entity_id: string;
  parent_entity_id: string;
  client_id: string;
  api_version: string;
  bus_type: string;
  kid: string;
  mid: string;
  perms: string[];
  ips: string[];
  iat: number;
  exp: number;
}

export const API_VERSION = 'V1.0';

/**
 * Verified tokens, by their exact text and by that of the header that carried them: a merchant sends the same
 * token for its whole life (30 min), and verifying it again (base64, JSON, HMAC) was ~8 % of the gateway's CPU
 * per authenticated request. Only a token whose signature verified is kept, so a flood of forged ones fills
 * nothing; expiry is checked again on every use, exactly as jsonwebtoken checks it. Revocation is not cached:
 * it is Redis' per request.
 */
const VERIFIED_CACHE_MAX_ENTRIES = 10_000;

/** The answer of POST /v1/connect/token (wire-compat §2). */
export interface IssuedToken {
  /** HS256 JWT; send it as `x-auth-token: Bearer <auth_token>`. */
  auth_token: string;
  /** Unix seconds. */
  expired_at: number;
}

@Injectable()
export class TokenService {
  /**
   * The secret as a KeyObject, made once. Given a string, jsonwebtoken first tries it as a PEM public key
   * (createPublicKey, which throws) before falling back to a secret key: ~0.8 ms of CPU on every request.
   */
  private readonly key: KeyObject;
  private readonly verified = new Map<string, TokenClaims>();

  constructor(@Inject(APP_CONFIG) private readonly config: GatewayConfig) {
    this.key = createSecretKey(Buffer.from(config.JWT_SECRET, 'utf8'));
  }

  issue(credential: VerifiedCredential): IssuedToken {
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + this.config.TOKEN_TTL_SECONDS;
    const claims: TokenClaims = {
      entity_id: credential.account_id,
      short_entity_id: credential.short_reference_id,
      parent_entity_id: credential.parent_account_id,
      client_id: credential.client_id,
      api_version: API_VERSION,
      bus_type: credential.business_codes[0] ?? 'BANKING',
      kid: credential.key_id,
      mid: credential.master_account_id,
      perms: credential.permissions,
      ips: credential.ip_allowlist,
      iat: issuedAt,
      exp: expiresAt,
    };
    const token = jwt.sign(claims, this.key, { algorithm: 'HS256', noTimestamp: true });
    return { auth_token: token, expired_at: expiresAt };
  }

  /** Accepts `Bearer <token>` and the bare token (decisions §1). */
  verify(header: string | string[] | undefined): TokenClaims {
    const value = Array.isArray(header) ? header[0] : header;
    if (!value) throw Errors.unauthorized('x-auth-token header is required');
    // Looked up by the header's text first: the same header always holds the same token, and stripping `Bearer`
    // (a case-insensitive regex, then trim) was ~1 % of the gateway's CPU per echo (--cpu-prof).
    let token: string | undefined;
    const known = this.verified.get(value) ?? this.verified.get((token = tokenOf(value)));
    if (known) {
      if (!expired(known)) {
        if (token !== undefined && token !== value) this.remember(value, known);
        return known;
      }
      this.verified.delete(value);
      if (token !== undefined) this.verified.delete(token);
      throw Errors.unauthorized('Token expired');
    }
    token ??= tokenOf(value);
    let claims: TokenClaims;
    try {
      claims = jwt.verify(token, this.key, { algorithms: ['HS256'] }) as TokenClaims;
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError) throw Errors.unauthorized('Token expired');
      throw Errors.unauthorized('Invalid auth token');
    }
    // Only our own shape is kept (a number `exp`, no `nbf`), frozen: every request shares the object.
    if (typeof claims.exp === 'number' && (claims as { nbf?: unknown }).nbf === undefined) {
      freezeClaims(claims);
      this.remember(token, claims);
      if (value !== token) this.remember(value, claims);
    }
    return claims;
  }

  private remember(text: string, claims: TokenClaims): void {
    if (this.verified.size >= VERIFIED_CACHE_MAX_ENTRIES) this.verified.clear();
    this.verified.set(text, claims);
  }
}

function tokenOf(header: string): string {
  return header.replace(/^Bearer\s+/i, '').trim();
}

/** jsonwebtoken's own rule: expired from the second `exp` names (no clock tolerance configured). */
function expired(claims: TokenClaims): boolean {
  return Math.floor(Date.now() / 1000) >= claims.exp;
}

function freezeClaims(claims: TokenClaims): TokenClaims {
  if (Array.isArray(claims.perms)) Object.freeze(claims.perms);
  if (Array.isArray(claims.ips)) Object.freeze(claims.ips);
  return Object.freeze(claims);
}
