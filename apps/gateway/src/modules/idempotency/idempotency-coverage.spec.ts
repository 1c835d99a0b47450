import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { GATEWAY_CONTROLLERS } from '../../gateway.module';
import { ROUTE_POLICY, RoutePolicy } from '../auth/route-policy.decorator';
import { IdempotencyInterceptor, READ_ONLY_POST } from './idempotency.interceptor';

/**
 * The IdempotencyInterceptor is attached per route (by ApiRoute's `command` kind), not globally: this is
 * the check that no writing route was left without it, and that no other route pays for it.
 */
interface Route {
  name: string;
  method: RequestMethod;
  writes: boolean;
  intercepted: boolean;
}

function routesOf(controller: (typeof GATEWAY_CONTROLLERS)[number]): Route[] {
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype)
    .filter((name) => name !== 'constructor' && typeof prototype[name] === 'function')
    .map((name) => prototype[name] as object)
    .filter((handler) => Reflect.getMetadata(METHOD_METADATA, handler) !== undefined)
    .map((handler) => {
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
      const policy = (Reflect.getMetadata(ROUTE_POLICY, handler) ?? Reflect.getMetadata(ROUTE_POLICY, controller)) as
        | RoutePolicy
        | undefined;
      const readOnly = Reflect.getMetadata(READ_ONLY_POST, handler) === true;
      const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []) as unknown[];
      return {
        name: `${controller.name}.${(handler as { name: string }).name}`,
        method,
        writes: method === RequestMethod.POST && policy?.public !== true && !readOnly,
        intercepted: interceptors.includes(IdempotencyInterceptor),
      };
    });
}

describe('idempotency coverage of the gateway routes', () => {
  const routes = GATEWAY_CONTROLLERS.flatMap(routesOf);

  it('finds the routes (the check itself works)', () => {
    expect(routes.filter((route) => route.writes).length).toBeGreaterThan(30);
    expect(routes.some((route) => route.method === RequestMethod.GET)).toBe(true);
  });

  it('puts every authenticated POST that writes behind the interceptor', () => {
    expect(routes.filter((route) => route.writes && !route.intercepted).map((route) => route.name)).toEqual([]);
  });

  it('leaves reads, read-only POSTs and public routes out of it', () => {
    expect(routes.filter((route) => !route.writes && route.intercepted).map((route) => route.name)).toEqual([]);
  });
});
