/**
 * @module
 * A proxy that stands in for an object with some of its members replaced: how the composition
 * root wraps the store (waking the delivery worker, tracing transactions) without copying it.
 */

/** The same object, with `overrides` in place of some of its members. */
export function forwarding<T extends object>(target: T, overrides: Partial<T>): T {
  // A method is bound once, not on every read: the store's is read on every request.
  const bound = new Map<PropertyKey, { readonly method: unknown; readonly bound: unknown }>();
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      const known = bound.get(property);
      if (known?.method === value) return known.bound;
      const method = value.bind(object);
      bound.set(property, { method: value, bound: method });
      return method;
    },
  });
}
