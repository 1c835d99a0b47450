import { ExecutionContext, Type } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { IdempotencyInterceptor, READ_ONLY_POST } from '../idempotency/idempotency.interceptor';
import { ROUTE_POLICY, RoutePolicy } from './route-policy.decorator';

/** What the AuthGuard needs to know about a route; fixed at boot, so read once per route, not per request. */
export interface RouteAuth {
  policy: RoutePolicy;
  /**
   * The route claims an idempotency key (the IdempotencyInterceptor, not opted out) and runs nothing between
   * the AuthGuard and that interceptor that could refuse it (no guard of its own, such as the per-card rate
   * limit, and no interceptor before it): only then may the guard's Redis round trip make the claim, which a refusal in between would
   * leave locked (a retry would read `request_being_processed` until the lock expired).
   */
  claimsOnAdmission: boolean;
}

export class RouteAuthCatalogue {
  private readonly routes = new WeakMap<Type<unknown>, WeakMap<object, RouteAuth>>();

  constructor(private readonly reflector: Reflector) {}

  of(context: ExecutionContext): RouteAuth {
    const controller = context.getClass();
    const handler = context.getHandler();
    let handlers = this.routes.get(controller);
    if (!handlers) this.routes.set(controller, (handlers = new WeakMap()));
    let route = handlers.get(handler);
    if (!route) handlers.set(handler, (route = this.read(handler, controller)));
    return route;
  }

  private read(handler: object, controller: Type<unknown>): RouteAuth {
    const targets = [handler as () => void, controller];
    const guards = this.reflector.getAllAndMerge<unknown[]>(GUARDS_METADATA, targets);
    const readOnly = this.reflector.getAllAndOverride<boolean | undefined>(READ_ONLY_POST, targets) === true;
    // Nest runs a controller's interceptors before the route's: the idempotency one must be the very first.
    const controllerInterceptors = this.reflector.get<unknown[] | undefined>(INTERCEPTORS_METADATA, controller) ?? [];
    const routeInterceptors = this.reflector.get<unknown[] | undefined>(INTERCEPTORS_METADATA, handler as () => void) ?? [];
    const claimsFirst = controllerInterceptors.length === 0 && routeInterceptors[0] === IdempotencyInterceptor;
    return {
      policy: this.reflector.getAllAndOverride<RoutePolicy | undefined>(ROUTE_POLICY, targets) ?? {},
      claimsOnAdmission: claimsFirst && !readOnly && guards.length === 0,
    };
  }
}
