// What the rules wait for: the defaults until an admin sets them, then his (on SQLite and PostgreSQL).
import { describe, expect, it } from "vitest";

import {
  DEFAULT_NOTIFICATION_SETTINGS,
  getNotificationSettings,
  notificationSettingsView,
  setNotificationSettings,
} from "@/lib/notifications/settings";

import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const BACKENDS = bothBackends();

describe.each<Backend>(BACKENDS)("notification settings on $name", (backend) => {
  const store = useStore(backend);

  it("the defaults (2 results, 5 minutes, a 2-minute merge window), then the admin's", async () => {
    const { db } = store();
    expect(await getNotificationSettings(db)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    expect(await notificationSettingsView(db)).toEqual({
      results_to_last: 2,
      down_minutes: 5,
      merge_window_minutes: 2,
      updated_at: null,
      updated_by: null,
    });
    const body = { results_to_last: 3, down_minutes: 10, merge_window_minutes: 0 };
    const saved = await setNotificationSettings(db, body, "admin@example.com", new Date("2026-11-28T12:00:00Z"));
    expect(saved).toEqual({ ...body, updated_at: "2026-11-28T12:00:00.000Z", updated_by: "admin@example.com" });
    expect(await getNotificationSettings(db)).toEqual({ resultsToLast: 3, downMinutes: 10, mergeWindowMs: 0 });
  });
});
