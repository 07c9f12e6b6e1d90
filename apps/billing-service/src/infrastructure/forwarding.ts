/**
 * @module
 * A proxy that stands in for an object with some of its members replaced: how the composition
 * root wraps the store (waking the delivery worker, tracing transactions) without copying it.
 */

/** The same object, with `overrides` in place of some of its members. */
export function forwarding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}
