// Login throttling on every backend. Time is injected: no test waits.
import { describe, expect, it } from "vitest";

import { checkLoginThrottle, clearLoginFailures, LOGIN_THROTTLE, recordLoginFailure } from "@/lib/auth/throttle";
import type { Db } from "@/lib/db";

import { useStore, type Backend } from "../db/support/backends";

const T0 = Date.parse("2025-03-01T12:00:00.000Z");
const at = (ms: number) => ({ now: new Date(T0 + ms) });
const MIN = 60_000;

async function fail(db: Db, email: string, ip: string | null, ms: number) {
  await recordLoginFailure(db, { email, ip }, at(ms));
}

export function throttleSuite(backend: Backend) {
  describe(`login throttling (${backend.name})`, () => {
    const store = useStore(backend);

    it("allows 4 failures for an email, refuses after the 5th until the oldest leaves the 15-minute window", async () => {
      const { db } = store();
      for (let i = 0; i < 4; i++) await fail(db, "alice@example.com", `10.0.0.${i}`, i * MIN);
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: "10.0.0.9" }, at(4 * MIN))).toEqual({
        allowed: true,
      });
      await fail(db, "alice@example.com", "10.0.0.4", 4 * MIN);

      // Different case, different IP: still the same email.
      const refused = await checkLoginThrottle(db, { email: "ALICE@example.com", ip: "10.0.0.99" }, at(5 * MIN));
      expect(refused).toEqual({ allowed: false, limitedBy: "email", retryAfterSeconds: 10 * 60 });

      // Just before the first failure (at 0) leaves the window: 1 second left. At 15 min: allowed again.
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: null }, at(15 * MIN - 1))).toEqual({
        allowed: false,
        limitedBy: "email",
        retryAfterSeconds: 1,
      });
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: null }, at(15 * MIN))).toEqual({
        allowed: true,
      });
      expect(await checkLoginThrottle(db, { email: "bob@example.com", ip: "10.0.0.1" }, at(5 * MIN))).toEqual({
        allowed: true,
      });
    });

    it("refuses an IP after 20 failures across any emails, for every email, and not other IPs", async () => {
      const { db } = store();
      for (let i = 0; i < 20; i++) await fail(db, `user${i}@example.com`, "203.0.113.7", i * 1000);
      expect(await checkLoginThrottle(db, { email: "new@example.com", ip: "203.0.113.7" }, at(30_000))).toEqual({
        allowed: false,
        limitedBy: "ip",
        retryAfterSeconds: 15 * 60 - 30,
      });
      expect(await checkLoginThrottle(db, { email: "new@example.com", ip: "203.0.113.8" }, at(30_000))).toEqual({
        allowed: true,
      });
      // Unknown client address: only the email counts.
      expect(await checkLoginThrottle(db, { email: "new@example.com", ip: null }, at(30_000))).toEqual({ allowed: true });
    });

    it("counts only the failures inside the window (a slow trickle is never refused)", async () => {
      const { db } = store();
      for (let i = 0; i < 10; i++) await fail(db, "alice@example.com", null, i * 4 * MIN);
      // At 40 min, failures at 28, 32, 36 min are inside the 15-minute window: 3 < 5.
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: null }, at(40 * MIN))).toEqual({
        allowed: true,
      });
    });

    it("gives the longer wait when both the email and the IP are over their limits", async () => {
      const { db } = store();
      for (let i = 0; i < 20; i++) await fail(db, `user${i}@example.com`, "198.51.100.1", i * 1000);
      for (let i = 0; i < 5; i++) await fail(db, "alice@example.com", "198.51.100.2", 5 * MIN + i * 1000);
      const decision = await checkLoginThrottle(db, { email: "alice@example.com", ip: "198.51.100.1" }, at(6 * MIN));
      // IP frees at 15:00, email at 20:00.
      expect(decision).toEqual({ allowed: false, limitedBy: "email", retryAfterSeconds: 14 * 60 });
    });

    it("a success forgives the email's failures (they stop counting for its IP too); other emails' stay", async () => {
      const { db } = store();
      for (let i = 0; i < 5; i++) await fail(db, "alice@example.com", "192.0.2.1", i);
      for (let i = 0; i < 16; i++) await fail(db, `other${i}@example.com`, "192.0.2.1", 10 + i);
      expect((await checkLoginThrottle(db, { email: "alice@example.com", ip: null }, at(MIN))).allowed).toBe(false);
      expect((await checkLoginThrottle(db, { email: "x@example.com", ip: "192.0.2.1" }, at(MIN))).allowed).toBe(false);

      await clearLoginFailures(db, "Alice@Example.com");
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: "192.0.2.1" }, at(MIN))).toEqual({
        allowed: true,
      });
      for (let i = 16; i < 20; i++) await fail(db, `other${i}@example.com`, "192.0.2.1", MIN + i);
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: "192.0.2.1" }, at(2 * MIN))).toMatchObject({
        allowed: false,
        limitedBy: "ip",
      });
    });

    it("prunes failures older than the window as it records new ones", async () => {
      const { db } = store();
      for (let i = 0; i < 3; i++) await fail(db, "alice@example.com", null, i * MIN);
      await fail(db, "bob@example.com", null, LOGIN_THROTTLE.windowMs + 2 * MIN);
      const left = await db.selectFrom("login_failures").select(["email", "at"]).orderBy("id").execute();
      // Failures at 0 and 1 min are past the window at 17 min; the one at 2 min is exactly at its edge, gone too.
      expect(left.map((r) => r.email)).toEqual(["bob@example.com"]);
    });

    it("honours other limits when given", async () => {
      const { db } = store();
      const limits = { windowMs: MIN, maxFailuresPerEmail: 2, maxFailuresPerIp: 3 };
      await recordLoginFailure(db, { email: "a@example.com", ip: "192.0.2.9" }, { ...at(0), limits });
      await recordLoginFailure(db, { email: "a@example.com", ip: "192.0.2.9" }, { ...at(1000), limits });
      expect(await checkLoginThrottle(db, { email: "a@example.com", ip: null }, { ...at(2000), limits })).toEqual({
        allowed: false,
        limitedBy: "email",
        retryAfterSeconds: 58,
      });
    });
  });
}
