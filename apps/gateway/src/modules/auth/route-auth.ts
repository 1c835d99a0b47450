import { ExecutionContext, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IDEMPOTENT_COMMAND, READ_ONLY_POST } from '../idempotency/idempotency.gate';
import { ROUTE_POLICY, RoutePolicy } from './route-policy.decorator';

/** What the AuthGuard needs to know about a route; fixed at boot, so read once per route, not per request. */
export interface RouteAuth {
  policy: RoutePolicy;
  /**
   * The route claims an idempotency key (a command route, ApiRoute's `command` kind, not opted out with
   * ReadOnlyPost): the guard's last step holds the claim (IdempotencyGate), which its Redis round trip usually
   * made already. A refusal after it (a route's own guard, validation) is settled by the gate like any answer:
   * the claim is forgotten, since nothing ran.
   */
  claimsIdempotencyKey: boolean;
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
    const command = this.reflector.getAllAndOverride<boolean | undefined>(IDEMPOTENT_COMMAND, targets) === true;
    const readOnly = this.reflector.getAllAndOverride<boolean | undefined>(READ_ONLY_POST, targets) === true;
    return {
      policy: this.reflector.getAllAndOverride<RoutePolicy | undefined>(ROUTE_POLICY, targets) ?? {},
      claimsIdempotencyKey: command && !readOnly,
    };
  }
}
