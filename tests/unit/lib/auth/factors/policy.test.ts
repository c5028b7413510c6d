// The admin's second-factor policy: read ("off" until set), written (with who and when), and whom it covers.
import { describe, expect, it } from "vitest";

import {
  policyCovers,
  readSecondFactorPolicy,
  readSignInPolicy,
  writeSecondFactorPolicy,
} from "@/lib/auth/factors/policy";

import { bothBackends, useStore } from "@/tests/support/store-backends";

describe("policyCovers", () => {
  it("off covers nobody, admins only admins, everyone every role", () => {
    for (const role of ["viewer", "editor", "support", "admin"] as const) {
      expect(policyCovers("off", role)).toBe(false);
      expect(policyCovers("admins", role)).toBe(role === "admin");
      expect(policyCovers("everyone", role)).toBe(true);
    }
  });
});

describe.each(bothBackends())("the policy in the store ($name)", (backend) => {
  const store = useStore(backend);

  it("is off until an admin sets it, then what he set last, with who and when", async () => {
    const { db } = store();
    expect(await readSecondFactorPolicy(db)).toBe("off");
    expect(await readSignInPolicy(db)).toEqual({ policy: "off", updatedAt: null, updatedBy: null });
    await writeSecondFactorPolicy(db, "admins", "root@example.com", new Date("2026-03-01T12:00:00.000Z"));
    await writeSecondFactorPolicy(db, "everyone", "ops@example.com", new Date("2026-03-02T12:00:00.000Z"));
    expect(await readSecondFactorPolicy(db)).toBe("everyone");
    expect(await readSignInPolicy(db)).toEqual({
      policy: "everyone",
      updatedAt: "2026-03-02T12:00:00.000Z",
      updatedBy: "ops@example.com",
    });
  });

  it("reads an unknown value in the row as off", async () => {
    const { db } = store();
    await db
      .insertInto("sign_in_settings")
      .values({
        id: "policy",
        second_factor_policy: "sometimes",
        updated_at: "2026-03-01T12:00:00.000Z",
        updated_by: null,
      })
      .execute();
    expect(await readSecondFactorPolicy(db)).toBe("off");
    expect((await readSignInPolicy(db)).policy).toBe("off");
  });
});
