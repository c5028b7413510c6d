// Waiting for a condition, never for a duration: polls `probe` until it returns something other than false,
// undefined or null, and returns that; throws "<what> within <timeoutMs> ms" when the deadline passes first. The
// deadline only bounds a failure (a condition met returns at once), so it is generous: a loaded 2-core CI machine
// ran a 60-code bulk job past 5 s, which takes 1 s when quiet. It stays under vitest's 20 s test timeout, so that a
// failure names what it waited for.
export async function until<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
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
