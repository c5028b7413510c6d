// Counting calls by when they arrived: for budgets that must hold in any window, wherever it starts.

/** The greatest number of `times` (ms) in any window of `windowMs`, wherever it starts. */
export function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return Math.max(0, ...sorted.map((start) => sorted.filter((t) => t >= start && t < start + windowMs).length));
}
