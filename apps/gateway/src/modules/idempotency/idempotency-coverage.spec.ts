import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { GATEWAY_CONTROLLERS } from '../../gateway.module';
import { ROUTE_POLICY, RoutePolicy } from '../auth/route-policy.decorator';
import { IDEMPOTENT_COMMAND, READ_ONLY_POST } from './idempotency.gate';

/**
 * A route claims an idempotency key when ApiRoute's `command` kind marks it (IDEMPOTENT_COMMAND): this is the
 * check that no writing route was left without the mark, that no other route pays for a claim, and that no
 * route carries a Nest interceptor (each costs ~25 µs a request, docs/performance.md §26).
 */
interface Route {
  name: string;
  method: RequestMethod;
  writes: boolean;
  isPublic: boolean;
  claims: boolean;
  interceptors: number;
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
      const interceptors = [handler, controller].flatMap((target) => (Reflect.getMetadata(INTERCEPTORS_METADATA, target) ?? []) as unknown[]);
      return {
        name: `${controller.name}.${(handler as { name: string }).name}`,
        method,
        writes: method === RequestMethod.POST && policy?.public !== true && !readOnly,
        isPublic: policy?.public === true,
        claims: Reflect.getMetadata(IDEMPOTENT_COMMAND, handler) === true,
        interceptors: interceptors.length,
      };
    });
}

describe('idempotency coverage of the gateway routes', () => {
  const routes = GATEWAY_CONTROLLERS.flatMap(routesOf);

  it('finds the routes (the check itself works)', () => {
    expect(routes.filter((route) => route.writes).length).toBeGreaterThan(30);
    expect(routes.some((route) => route.method === RequestMethod.GET)).toBe(true);
  });

  it('marks every authenticated POST that writes as an idempotent command', () => {
    expect(routes.filter((route) => route.writes && !route.claims).map((route) => route.name)).toEqual([]);
  });

  it('leaves reads and public routes unmarked (a read-only POST opts out with ReadOnlyPost)', () => {
    expect(routes.filter((route) => (route.method !== RequestMethod.POST || route.isPublic) && route.claims).map((route) => route.name)).toEqual([]);
  });

  it('puts no route through a Nest interceptor', () => {
    expect(routes.filter((route) => route.interceptors > 0).map((route) => route.name)).toEqual([]);
  });
});
