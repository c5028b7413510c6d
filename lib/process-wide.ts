// State the whole process shares. Next loads a module once per bundle (each route, the pages, instrumentation),
// so a module-level variable would exist once per copy; every copy must see one value instead. It lives on
// globalThis under Symbol.for("gatehouse.<name>"), a key that is the same in every copy. Such a value may have
// been made by another copy's classes: nothing may decide by `instanceof` across bundles (lib/brand.ts).

const shared = globalThis as unknown as Record<symbol, unknown>;

function keyOf(name: string): symbol {
  return Symbol.for(`gatehouse.${name}`);
}

/** The process's value under `name`, made by `create` on the first call from any copy. */
export function processWide<T>(name: string, create: () => T): T {
  return (shared[keyOf(name)] ??= create()) as T;
}

/** A value under `name` that is replaced or cleared (`set(undefined)`), not only made once. */
export function processSlot<T>(name: string): { get(): T | undefined; set(value: T | undefined): void } {
  const key = keyOf(name);
  return {
    get: () => shared[key] as T | undefined,
    set: (value) => {
      if (value === undefined) delete shared[key];
      else shared[key] = value;
    },
  };
}

/**
 * The process's promise under `name`, started by `start` on first use. One that rejects is forgotten, so that the
 * next call starts again (a store not reachable yet, a configuration fixed in a long-lived dev server).
 */
export function processPromise<T>(name: string, start: () => Promise<T>): Promise<T> {
  const slot = processSlot<Promise<T>>(name);
  const current = slot.get();
  if (current) return current;
  const started = start();
  slot.set(started);
  started.catch(() => {
    if (slot.get() === started) slot.set(undefined);
  });
  return started;
}
