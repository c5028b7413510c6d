// What the rules wait for before they speak: how many results a report's change must last, how many minutes an
// upstream must be down, how long a message waits for repeats to merge with it, how often the tick looks.
export interface NotificationSettings {
  /** A report's changed result alerts once it has lasted this many results (1: at once). */
  resultsToLast: number;
  /** An upstream is "down" once it has been unavailable this many minutes. */
  downMinutes: number;
  /** A message is held this long (quiet hours may hold it longer) so that repeats merge into it. */
  mergeWindowMs: number;
}

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  resultsToLast: 2,
  downMinutes: 5,
  mergeWindowMs: 2 * 60_000,
};
