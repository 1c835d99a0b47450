import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { leanBind } from './lean-async-resource-bind';

/** The lean bind must behave as Node's own: same scope, same `this`, same arguments, same `length`. */
describe('leanBind', () => {
  const storage = new AsyncLocalStorage<string>();

  it('runs the function in the scope of the resource it was bound in, wherever it is called', () => {
    const bound = storage.run('request 1', () =>
      leanBind.call(new AsyncResource('test'), () => storage.getStore()),
    );
    expect(storage.run('request 2', () => bound())).toBe('request 1');
    expect(bound()).toBe('request 1');
  });

  it("passes the caller's this and arguments, or the thisArg given", () => {
    function whoAndWhat(this: unknown, ...args: unknown[]) {
      return { self: this, args };
    }
    const caller = { name: 'caller' };
    const fixed = { name: 'fixed' };
    const unfixed = leanBind.call(new AsyncResource('test'), whoAndWhat) as typeof whoAndWhat;
    expect(unfixed.call(caller, 1, 2)).toEqual({ self: caller, args: [1, 2] });
    const pinned = leanBind.call(new AsyncResource('test'), whoAndWhat, fixed) as typeof whoAndWhat;
    expect(pinned.call(caller, 3)).toEqual({ self: fixed, args: [3] });
  });

  it("keeps the function's length and exposes the resource as asyncResource", () => {
    const resource = new AsyncResource('test');
    const bound = leanBind.call(resource, (a: number, b: number) => a + b) as ((
      a: number,
      b: number,
    ) => number) & {
      asyncResource: AsyncResource;
    };
    expect(bound.length).toBe(2);
    expect(bound(1, 2)).toBe(3);
    expect(bound.asyncResource).toBe(resource);
  });

  it("looks like Node's own bound function: name, length and enumerable properties", () => {
    // Node's own, untouched here (only the gateway's main installs the lean one); typed as it behaves.
    const nodeBind = AsyncResource.prototype.bind as unknown as typeof leanBind;
    const resource = new AsyncResource('test');
    const target = function target(this: unknown, a: number) {
      return a;
    };
    for (const thisArg of [undefined, { pinned: true }]) {
      const lean = leanBind.call(resource, target, thisArg);
      const node = nodeBind.call(resource, target, thisArg);
      expect([lean.name, lean.length, Object.keys(lean)]).toEqual([
        node.name,
        node.length,
        Object.keys(node),
      ]);
    }
  });

  it('refuses what is not a function, as Node does', () => {
    expect(() => leanBind.call(new AsyncResource('test'), 'nope' as unknown as () => void)).toThrow(
      TypeError,
    );
  });
});
