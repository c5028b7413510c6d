// An object a vitest hook makes, handed out before it exists: set-ups called at a file's top level
// (./set-up-gateway.ts, ./set-up-sandbox.ts) return one, and the tests use it once the hook has run.

/** Stands for an object made later: each property read goes to it, methods bound to it. */
export function late<T extends object>(current: () => T | undefined, name: string): T {
  const target = () => {
    const value = current();
    if (!value) throw new Error(`${name} is not there (used outside the tests?)`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, property) {
      const object = target();
      const value = Reflect.get(object, property) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
    set(_, property, value) {
      return Reflect.set(target(), property, value);
    },
    has(_, property) {
      return Reflect.has(target(), property);
    },
  });
}
