import { createHmac, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import {
  Actor,
  AuthorizationDecisionRequest,
  AuthorizationDecisionResponse,
  DecisionEndpointView,
  DecisionEndpointWriteView,
  SetDecisionEndpointPayload,
} from '@paygrid/contracts';
import { LOGGER, TransactionContext, UrlRefusedError } from '@paygrid/platform';
import { DecisionErrors } from '../../common/issuing-errors';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';
import { CardSecretVault } from '../crypto/card-secrets';
import { DecisionCaller } from './decision-caller';
import { DecisionEndpoint, DecisionEndpointRepository } from './decision-endpoint.repository';

/**
 * Real-time authorization decisions (wire-compat §11.12; docs/issuing.md "Decision endpoint"). An account may
 * set one endpoint; every authorization that passed the card's own rules then asks it, with no database
 * transaction open (no row lock is held across HTTP), and waits at most the endpoint's timeout (≤ 5 s).
 *
 * The request is the §11.12 JSON, signed rather than OpenPGP-encrypted (no well-kept npm OpenPGP library is in
 * the project): `x-auth-timestamp` (Unix seconds) and `x-auth-signature` = hex HMAC-SHA512 of
 * `<timestamp>.<raw body>` under the endpoint's signing secret (shown once, when the endpoint is set). The
 * answer `{transaction_id, response_code}` approves with "00" and declines with any other code; no answer in
 * time, a non-2xx status or an unreadable body applies the endpoint's default decision, and so does an address the
 * outbound guard refuses at call time (decision-caller.ts): that call is never made.
 */
export interface Decision {
  approved: boolean;
  /** The endpoint's code, or null when the default applied. */
  responseCode: string | null;
  /** Why, for the declined transaction's description and the log. */
  reason: string;
}

@Injectable()
export class DecisionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: DecisionEndpointRepository,
    private readonly vault: CardSecretVault,
    private readonly caller: DecisionCaller,
    @Inject(ISSUING_CONFIG) private readonly config: Pick<IssuingConfig, 'AUTH_DECISION_TIMEOUT_MS' | 'AUTH_DECISION_DEFAULT'>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Before `set`, with no transaction open (the DNS answer may take the resolver's timeout). */
  async checkUrl(url: string): Promise<void> {
    try {
      await this.caller.checkUrl(url);
    } catch (error) {
      if (error instanceof UrlRefusedError) throw DecisionErrors.invalidUrl(error.message);
      throw error;
    }
  }

  async set(tx: TransactionContext, actor: Actor, payload: SetDecisionEndpointPayload): Promise<DecisionEndpointWriteView> {
    const secret = `dsk_${randomBytes(32).toString('base64url')}`;
    const endpoint = await this.endpoints.upsert(tx.manager, {
      accountId: actor.account_id,
      url: payload.url,
      defaultDecision: payload.default_decision ?? this.config.AUTH_DECISION_DEFAULT,
      timeoutMs: Math.min(payload.timeout_ms ?? this.config.AUTH_DECISION_TIMEOUT_MS, this.config.AUTH_DECISION_TIMEOUT_MS),
      secretCiphertext: this.vault.encrypt(secret, secretContext(actor.account_id)),
    });
    return { ...present(endpoint), signing_secret: secret };
  }

  async retrieve(actor: Actor): Promise<DecisionEndpointView> {
    const endpoint = await this.endpoints.find(this.dataSource, actor.account_id);
    if (!endpoint) throw DecisionErrors.notSet();
    return present(endpoint);
  }

  async delete(tx: TransactionContext, actor: Actor): Promise<DecisionEndpointView> {
    const endpoint = await this.endpoints.delete(tx.manager, actor.account_id);
    if (!endpoint) throw DecisionErrors.notSet();
    return { ...present(endpoint), status: 'DISABLED' };
  }

  /** The account's endpoint, if it set one (looked up before the decision is asked, outside any transaction). */
  endpointOf(accountId: string): Promise<DecisionEndpoint | undefined> {
    return this.endpoints.find(this.dataSource, accountId);
  }

  /** Asks the endpoint; never throws: whatever goes wrong applies its default decision. */
  async ask(endpoint: DecisionEndpoint, request: AuthorizationDecisionRequest): Promise<Decision> {
    const body = JSON.stringify(request);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const secret = this.vault.decrypt(endpoint.secretCiphertext, secretContext(endpoint.accountId));
    const outcome = await this.caller.post(
      endpoint.url,
      body,
      {
        'content-type': 'application/json; charset=utf-8',
        'x-auth-timestamp': timestamp,
        'x-auth-signature': signDecisionRequest(secret, timestamp, body),
      },
      endpoint.timeoutMs,
    );
    if (outcome.kind !== 'answered') return this.fallback(endpoint, request, outcome.why);
    if (outcome.status < 200 || outcome.status > 299) return this.fallback(endpoint, request, `the endpoint answered HTTP ${outcome.status}`);
    const answer = parseAnswer(outcome.body, request.transaction_id);
    if (!answer) return this.fallback(endpoint, request, 'the answer is not {transaction_id, response_code} for this transaction');
    return answer.response_code === '00'
      ? { approved: true, responseCode: '00', reason: 'approved by the decision endpoint' }
      : { approved: false, responseCode: answer.response_code, reason: `declined by the decision endpoint (response_code ${answer.response_code})` };
  }

  private fallback(endpoint: DecisionEndpoint, request: AuthorizationDecisionRequest, why: string): Decision {
    this.logger.warn({ account_id: endpoint.accountId, transaction_id: request.transaction_id, why }, 'decision endpoint: default decision applied');
    const approved = endpoint.defaultDecision === 'APPROVE';
    return { approved, responseCode: null, reason: `decision endpoint: ${why}; default ${endpoint.defaultDecision} applied` };
  }
}

/** What the merchant's receiver recomputes to check a decision request came from us. */
export function signDecisionRequest(secret: string, timestamp: string, body: string): string {
  return createHmac('sha512', secret).update(`${timestamp}.${body}`).digest('hex');
}

function secretContext(accountId: string): string {
  return `decision-endpoint:${accountId}`;
}

function parseAnswer(text: string, transactionId: string): AuthorizationDecisionResponse | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<AuthorizationDecisionResponse> | null;
    if (!parsed || typeof parsed !== 'object' || parsed.transaction_id !== transactionId) return undefined;
    return typeof parsed.response_code === 'string' && /^[0-9A-Z]{2}$/.test(parsed.response_code) ? (parsed as AuthorizationDecisionResponse) : undefined;
  } catch {
    return undefined;
  }
}

function present(endpoint: DecisionEndpoint): DecisionEndpointView {
  return {
    url: endpoint.url,
    default_decision: endpoint.defaultDecision,
    timeout_ms: endpoint.timeoutMs,
    status: 'ENABLED',
    create_time: endpoint.createdAt.toISOString(),
    update_time: endpoint.updatedAt.toISOString(),
  };
}
