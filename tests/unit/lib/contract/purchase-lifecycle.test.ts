// The lifecycle settings an admin sends: the defaults pass, and each mistake is refused with a sentence.
import { describe, expect, it } from "vitest";

import {
  DEFAULT_LIFECYCLE_SETTINGS,
  NO_LIFECYCLE,
  PurchaseLifecycleSchema,
  PurchaseLifecycleSettingsSchema,
} from "@/lib/contract/purchase-lifecycle";

const messages = (value: unknown) => {
  const parsed = PurchaseLifecycleSettingsSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("PurchaseLifecycleSettingsSchema", () => {
  it("accepts the defaults, and a sweep of some items", () => {
    expect(messages(DEFAULT_LIFECYCLE_SETTINGS)).toEqual([]);
    expect(messages({ ...DEFAULT_LIFECYCLE_SETTINGS, sweep: { enabled: true, items: [1, 2], every_days: 7 } })).toEqual(
      [],
    );
  });

  it("refuses each mistake with a sentence", () => {
    expect(messages({ ...DEFAULT_LIFECYCLE_SETTINGS, sweep: { enabled: true, items: [], every_days: 0 } })).toEqual([
      'sweep.items: must name at least one item (or be "all")',
      "sweep.every_days: must be at least 1 day",
    ]);
    expect(messages({ ...DEFAULT_LIFECYCLE_SETTINGS, support_expiring_days: 1.5 })).toEqual([
      "support_expiring_days: must be a whole number of days",
    ]);
    expect(
      messages({ ...DEFAULT_LIFECYCLE_SETTINGS, shared: { ...DEFAULT_LIFECYCLE_SETTINGS.shared, tickets: 1 } }),
    ).toEqual(["shared.tickets: must be at least 2 (one place is the buyer)"]);
    expect(messages({ ...DEFAULT_LIFECYCLE_SETTINGS, extra: true })).toHaveLength(1);
  });

  it("describes a check with no life to tell as NO_LIFECYCLE", () => {
    expect(PurchaseLifecycleSchema.parse(NO_LIFECYCLE)).toEqual(NO_LIFECYCLE);
  });
});
