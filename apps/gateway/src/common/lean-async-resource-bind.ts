import { AsyncResource } from 'node:async_hooks';

/**
 * Node's (20 and 24 alike) `AsyncResource.prototype.bind` gives every function it binds an `asyncResource` accessor whose getter
 * and setter are each a `util.deprecate` wrapper (DEP0172): two closures, a `setPrototypeOf` on a function and a
 * lazily made `prototype` object per bind. Fastify binds once per request with a body (its content-type parser)
 * and Nest twice per request through an interceptor, so an idempotent POST pays for six wrappers: ~8 % of the
 * gateway's busy time under the echo load in a `--cpu-prof` profile, and with the garbage they leave, ~24 % of its
 * CPU per echo (221 -> 169 µs, 2026-11-23), for a warning on a property nothing here reads.
 *
 * This binds the same way (same async scope, same `this` and arguments, same `length`) and keeps `asyncResource`,
 * as a plain property holding the resource: reading it gives what the getter gave, assigning it does what the
 * setter did (it never changed the scope the function runs in); only the deprecation warning is gone. Installed
 * once at the gateway's boot (main.ts); on a Node whose own bind defines no such accessor it changes nothing.
 */
export function installLeanAsyncResourceBind(): boolean {
  if (!definesDeprecatedAccessor()) return false;
  AsyncResource.prototype.bind = leanBind as unknown as AsyncResource['bind'];
  return true;
}

export function leanBind<F extends (...args: never[]) => unknown>(
  this: AsyncResource,
  fn: F,
  thisArg?: unknown,
): F {
  if (typeof fn !== 'function') {
    throw new TypeError(
      `The "fn" argument must be of type function. Received ${fn === null ? 'null' : typeof fn}`,
    );
  }
  const run = fn as unknown as (...args: unknown[]) => unknown;
  const bound = thisArg === undefined ? inScopeOf(this, run) : this.runInAsyncScope.bind(this, run, thisArg);
  Object.defineProperty(bound, 'length', {
    configurable: true,
    enumerable: false,
    value: fn.length,
    writable: false,
  });
  (bound as { asyncResource?: AsyncResource }).asyncResource = this;
  return bound as unknown as F;
}

/** Runs `fn` in the resource's scope with the caller's `this`, as Node's bind does when given no thisArg. */
function inScopeOf(
  resource: AsyncResource,
  fn: (...args: unknown[]) => unknown,
): (...args: unknown[]) => unknown {
  return function bound(this: unknown, ...args: unknown[]) {
    return resource.runInAsyncScope(fn, this, ...args);
  };
}

function definesDeprecatedAccessor(): boolean {
  const probe = new AsyncResource('paygrid:bind-probe', { requireManualDestroy: true });
  const descriptor = Object.getOwnPropertyDescriptor(
    probe.bind(() => undefined),
    'asyncResource',
  );
  probe.emitDestroy();
  return typeof descriptor?.get === 'function';
}
