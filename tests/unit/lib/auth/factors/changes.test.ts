// The factor events: who, which kind, how many recovery codes are left; never a secret.
import { afterEach, describe, expect, it } from "vitest";

import { announceFactorChange } from "@/lib/auth/factors/changes";
import { setEventSink, type PortalEvent } from "@/lib/events";

afterEach(() => setEventSink("test", null));

describe("announceFactorChange", () => {
  it("sends each change as its event, with the person and only the facts of its kind", async () => {
    const seen: PortalEvent[] = [];
    setEventSink("test", async (event) => {
      seen.push(event);
    });
    const user = { id: "u1", email: "vera@example.com" };
    await announceFactorChange(user, { type: "account.factor_enrolled", kind: "totp" });
    await announceFactorChange(user, { type: "account.factor_removed", kind: "passkey" });
    await announceFactorChange(user, { type: "account.recovery_code_used", codesLeft: 9 });
    await announceFactorChange(user, { type: "account.factors_reset" });
    expect(seen.map(({ type, data }) => ({ type, data }))).toEqual([
      { type: "account.factor_enrolled", data: { user, kind: "totp" } },
      { type: "account.factor_removed", data: { user, kind: "passkey" } },
      { type: "account.recovery_code_used", data: { user, recovery_codes_left: 9 } },
      { type: "account.factors_reset", data: { user } },
    ]);
  });
});
