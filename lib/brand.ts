// Telling objects apart in the built server. Next's bundler can load one module several times (one copy per
// bundle), while some objects are shared by the whole process (the store, the upstream policies, the
// configuration): an error made by one copy of a class then fails `instanceof` against another copy's class.
// So errors and handles carry a brand — a registered symbol (Symbol.for), the same in every copy — and code
// tells them apart with hasBrand, never by class identity.

/** True when `value` is an object carrying `brand` (set to true by its constructor). */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
