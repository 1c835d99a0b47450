import { ExecutionContext, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PaymentIntentsController } from '../acquiring/payment-intents.controller';
import { DiagnosticsController } from '../diagnostics/diagnostics.controller';
import { IssuingFundsController } from '../issuing/issuing-funds.controller';
import { IssuingController } from '../issuing/issuing.controller';
import { RouteAuthCatalogue } from './route-auth';

/** Which routes let the AuthGuard's Redis round trip claim the idempotency key (request-admission.ts). */
describe('RouteAuthCatalogue', () => {
  const catalogue = new RouteAuthCatalogue(new Reflector());
  const routeOf = (controller: Type<unknown>, method: string) =>
    catalogue.of({ getClass: () => controller, getHandler: () => (controller.prototype as Record<string, unknown>)[method] } as ExecutionContext);

  it('claims on admission for a command route with nothing between the guard and the interceptor', () => {
    expect(routeOf(DiagnosticsController, 'echo').claimsOnAdmission).toBe(true);
    expect(routeOf(PaymentIntentsController, 'create')).toEqual({ policy: { requiresClientId: true }, claimsOnAdmission: true });
  });

  it('does not for a command route with a guard of its own (the per-card limit could refuse after the claim)', () => {
    const route = routeOf(IssuingController, 'createPanToken');
    expect(route.claimsOnAdmission).toBe(false);
    expect(route.policy.permission).toBeDefined();
  });

  it('does not for reads, read-only POSTs and public routes', () => {
    expect(routeOf(PaymentIntentsController, 'list').claimsOnAdmission).toBe(false);
    expect(routeOf(IssuingFundsController, 'retrieveBalance').claimsOnAdmission).toBe(false);
  });

  it('reads a route once', () => {
    expect(routeOf(DiagnosticsController, 'echo')).toBe(routeOf(DiagnosticsController, 'echo'));
  });
});
