import { ExecutionContext, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PaymentIntentsController } from '../acquiring/payment-intents.controller';
import { DiagnosticsController } from '../diagnostics/diagnostics.controller';
import { IssuingFundsController } from '../issuing/issuing-funds.controller';
import { IssuingController } from '../issuing/issuing.controller';
import { RouteAuthCatalogue } from './route-auth';

/** Which routes claim an idempotency key in the AuthGuard (IdempotencyGate; request-admission.ts). */
describe('RouteAuthCatalogue', () => {
  const catalogue = new RouteAuthCatalogue(new Reflector());
  const routeOf = (controller: Type<unknown>, method: string) =>
    catalogue.of({ getClass: () => controller, getHandler: () => (controller.prototype as Record<string, unknown>)[method] } as ExecutionContext);

  it('claims for command routes, a route with a guard of its own included', () => {
    expect(routeOf(DiagnosticsController, 'echo').claimsIdempotencyKey).toBe(true);
    expect(routeOf(PaymentIntentsController, 'create')).toEqual({ policy: { requiresClientId: true }, claimsIdempotencyKey: true });
    const panToken = routeOf(IssuingController, 'createPanToken');
    expect(panToken.claimsIdempotencyKey).toBe(true);
    expect(panToken.policy.permission).toBeDefined();
  });

  it('does not for reads, read-only POSTs and public routes', () => {
    expect(routeOf(PaymentIntentsController, 'list').claimsIdempotencyKey).toBe(false);
    expect(routeOf(IssuingFundsController, 'retrieveBalance').claimsIdempotencyKey).toBe(false);
    expect(routeOf(IssuingController, 'retrieveSecureDetails').claimsIdempotencyKey).toBe(false);
  });

  it('reads a route once', () => {
    expect(routeOf(DiagnosticsController, 'echo')).toBe(routeOf(DiagnosticsController, 'echo'));
  });
});
