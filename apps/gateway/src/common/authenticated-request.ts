import type { FastifyRequest } from 'fastify';
import { Actor } from '@paygrid/contracts';

/** What authentication established about the caller, attached to the request by the AuthGuard. */
export interface AuthContext {
  keyId: string;
  clientId: string;
  accountId: string;
  masterAccountId: string;
  shortReferenceId: string;
  permissions: string[];
  /** The account the request acts as, after x-on-behalf-of. */
  actor: Actor;
}

export type AuthenticatedRequest = FastifyRequest & { auth?: AuthContext };

export function authOf(request: AuthenticatedRequest): AuthContext {
  if (!request.auth) throw new Error('route reached without authentication');
  return request.auth;
}
