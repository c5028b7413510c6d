// Hooks for values that belong to the browser (is this the client yet? what time is it?). They use
// useSyncExternalStore with a server snapshot, so the server and the hydrating client render the same
// fallback and React re-renders with the browser's value right after hydration: no mismatch, no effect.
import { useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

/** False on the server and during hydration, true afterwards. */
export function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

const CLOCK_STEP_MS = 15_000;

// The clock's value only changes once per step, so consecutive snapshot reads agree (React requires it).
const readClock = () => Math.floor(Date.now() / CLOCK_STEP_MS) * CLOCK_STEP_MS;

// One timer for the whole page, however many times are on it (a table of 100 rows has 100 subscribers).
const clockListeners = new Set<() => void>();
let clockTimer: ReturnType<typeof setInterval> | undefined;

function subscribeToClock(onChange: () => void): () => void {
  clockListeners.add(onChange);
  clockTimer ??= setInterval(() => clockListeners.forEach((listener) => listener()), CLOCK_STEP_MS);
  return () => {
    clockListeners.delete(onChange);
    if (clockListeners.size === 0) {
      clearInterval(clockTimer);
      clockTimer = undefined;
    }
  };
}

/** The current time in ms, refreshed every 15 seconds; null on the server and during hydration. */
export function useNow(): number | null {
  return useSyncExternalStore(subscribeToClock, readClock, () => null);
}
