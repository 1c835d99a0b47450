import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';

/**
 * Per-route authentication policy, read by the AuthGuard.
 * - `public`: no token (token issuance, health, docs).
 * - `requiresClientId`: payment-intent operations must carry an x-client-id equal to the token's.
 * - `permission`: a key permission the route needs (sensitive card details).
 */
export const ROUTE_POLICY = 'paygrid:route-policy';

export interface RoutePolicy {
  public?: boolean;
  requiresClientId?: boolean;
  permission?: string;
}

export const Public = () => SetMetadata<string, RoutePolicy>(ROUTE_POLICY, { public: true });
/** Also declares, in the API reference, that both the token and the client id are required. */
export const RequiresClientId = () =>
  applyDecorators(
    SetMetadata<string, RoutePolicy>(ROUTE_POLICY, { requiresClientId: true }),
    ApiSecurity({ authToken: [], clientId: [] }),
  );
export const RequiresPermission = (permission: string) =>
  SetMetadata<string, RoutePolicy>(ROUTE_POLICY, { permission });
