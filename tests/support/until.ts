// Waiting for a condition, never for a duration: polls `probe` until it returns something other than false,
// undefined or null, and returns that; throws "<what> within <timeoutMs> ms" when the deadline passes first.
export async function until<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 5_000,
  everyMs = 10,
): Promise<Exclude<T, false | undefined | null>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== false && value !== undefined && value !== null) return value as Exclude<T, false | undefined | null>;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
