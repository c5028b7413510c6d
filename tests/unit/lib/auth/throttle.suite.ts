// Login throttling on every backend. Time is injected: no test waits.
import { describe, expect, it } from "vitest";

import { addressKey } from "@/lib/auth/address";
import {
  accountDelayMs,
  checkLoginThrottle,
  clearLoginFailures,
  forgiveLoginAttempt,
  LOGIN_THROTTLE,
  recordLoginFailure,
  reserveLoginAttempt,
} from "@/lib/auth/throttle";
import type { Db } from "@/lib/db";

import { useStore, type Backend } from "@/tests/support/store-backends";

const T0 = Date.parse("2025-03-01T12:00:00.000Z");
const at = (ms: number) => ({ now: new Date(T0 + ms) });
const MIN = 60_000;

/** A failure as a failed sign-in leaves it. */
async function fail(db: Db, email: string, ip: string | null, ms: number) {
  await db
    .insertInto("login_failures")
    .values({ email, ip: addressKey(ip), at: new Date(T0 + ms).toISOString() })
    .execute();
}

export function throttleSuite(backend: Backend) {
  describe(`login throttling (${backend.name})`, () => {
    const store = useStore(backend);

    it("refuses an account from the address that failed 5 times, until the oldest leaves the window — and no other address", async () => {
      const { db } = store();
      for (let i = 0; i < 4; i++) await fail(db, "alice@example.com", "10.0.0.1", i * MIN);
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: "10.0.0.1" }, at(4 * MIN))).toEqual({
        allowed: true,
        delayMs: 0,
      });
      await fail(db, "alice@example.com", "10.0.0.1", 4 * MIN);

      // Same address, the email in another case: refused.
      expect(await checkLoginThrottle(db, { email: "ALICE@example.com", ip: "10.0.0.1" }, at(5 * MIN))).toEqual({
        allowed: false,
        limitedBy: "email",
        retryAfterSeconds: 10 * 60,
      });
      // The owner, from his own address: not refused, only delayed (the account has 5 failures).
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: "10.0.0.2" }, at(5 * MIN))).toEqual({
        allowed: true,
        delayMs: 1000,
      });
      // Unknown address: never refused, delayed alike.
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: null }, at(5 * MIN))).toEqual({
        allowed: true,
        delayMs: 1000,
      });
      // Just before the first failure leaves the window: 1 second left; then allowed again.
      expect(
        await checkLoginThrottle(db, { email: "alice@example.com", ip: "10.0.0.1" }, at(15 * MIN - 1)),
      ).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: "10.0.0.1" }, at(15 * MIN))).toEqual({
        allowed: true,
        delayMs: 0,
      });
    });

    it("delays an account progressively whatever the address, 1 s doubling up to 10 s, never refusing", async () => {
      expect([0, 4, 5, 6, 7, 8, 9, 50].map((n) => accountDelayMs(n))).toEqual([
        0, 0, 1000, 2000, 4000, 8000, 10_000, 10_000,
      ]);
      const { db } = store();
      for (let i = 0; i < 12; i++) await fail(db, "alice@example.com", `198.51.100.${i}`, i * 1000);
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: "192.0.2.50" }, at(MIN))).toEqual({
        allowed: true,
        delayMs: 10_000,
      });
    });

    it("refuses an address after 20 failures across any accounts, for every account; other addresses are not affected", async () => {
      const { db } = store();
      for (let i = 0; i < 20; i++) await fail(db, `user${i}@example.com`, "203.0.113.7", i * 1000);
      expect(await checkLoginThrottle(db, { email: "new@example.com", ip: "203.0.113.7" }, at(30_000))).toEqual({
        allowed: false,
        limitedBy: "ip",
        retryAfterSeconds: 15 * 60 - 30,
      });
      expect(await checkLoginThrottle(db, { email: "new@example.com", ip: "203.0.113.8" }, at(30_000))).toEqual({
        allowed: true,
        delayMs: 0,
      });
      expect(await checkLoginThrottle(db, { email: "new@example.com", ip: null }, at(30_000))).toEqual({
        allowed: true,
        delayMs: 0,
      });
    });

    it("counts the IPv6 addresses of one /64 as one address", async () => {
      const { db } = store();
      for (let i = 0; i < 20; i++)
        await fail(db, `user${i}@example.com`, `2001:db8:7:7::${(i + 1).toString(16)}`, i * 1000);
      expect(
        await checkLoginThrottle(db, { email: "new@example.com", ip: "2001:db8:7:7:ffff::1" }, at(30_000)),
      ).toMatchObject({ allowed: false, limitedBy: "ip" });
      expect(await checkLoginThrottle(db, { email: "new@example.com", ip: "2001:db8:7:8::1" }, at(30_000))).toEqual({
        allowed: true,
        delayMs: 0,
      });
    });

    it("counts only the failures inside the window (a slow trickle is never refused)", async () => {
      const { db } = store();
      for (let i = 0; i < 10; i++) await fail(db, "alice@example.com", "10.0.0.1", i * 4 * MIN);
      // At 40 min, failures at 28, 32, 36 min are inside the 15-minute window: 3 < 5.
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: "10.0.0.1" }, at(40 * MIN))).toEqual({
        allowed: true,
        delayMs: 0,
      });
    });

    it("reserves attempts in order: of a burst racing for the last tries, only the first go on", async () => {
      const { db } = store();
      for (let i = 0; i < 3; i++) await fail(db, "alice@example.com", "10.0.0.1", i);
      const burst = await Promise.all(
        Array.from({ length: 20 }, () =>
          reserveLoginAttempt(db, { email: "alice@example.com", ip: "10.0.0.1" }, at(1000)),
        ),
      );
      expect(burst.filter((r) => r.reserved)).toHaveLength(2);
      expect(burst.filter((r) => !r.reserved).every((r) => !r.reserved && r.decision.limitedBy === "email")).toBe(true);
      // Refused attempts left nothing behind: 3 failures + 2 reservations.
      expect((await db.selectFrom("login_failures").select("id").execute()).length).toBe(5);
    });

    it("a success forgives its own account and address only; an admin's unlock clears the account everywhere", async () => {
      const { db } = store();
      for (let i = 0; i < 4; i++) await fail(db, "alice@example.com", "192.0.2.1", i);
      for (let i = 0; i < 5; i++) await fail(db, "alice@example.com", "192.0.2.66", 10 + i);
      const reservation = await reserveLoginAttempt(db, { email: "alice@example.com", ip: "192.0.2.1" }, at(MIN));
      if (!reservation.reserved) throw new Error("refused");
      await forgiveLoginAttempt(db, { email: "alice@example.com", ip: "192.0.2.1" }, reservation.id);
      expect((await checkLoginThrottle(db, { email: "alice@example.com", ip: "192.0.2.66" }, at(MIN))).allowed).toBe(
        false,
      );
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: "192.0.2.1" }, at(MIN))).toEqual({
        allowed: true,
        delayMs: 1000,
      });

      await clearLoginFailures(db, "Alice@Example.com");
      expect(await checkLoginThrottle(db, { email: "alice@example.com", ip: "192.0.2.66" }, at(MIN))).toEqual({
        allowed: true,
        delayMs: 0,
      });
    });

    it("prunes failures older than the window as it records new ones", async () => {
      const { db } = store();
      for (let i = 0; i < 3; i++) await fail(db, "alice@example.com", null, i * MIN);
      await fail(db, "bob@example.com", null, LOGIN_THROTTLE.windowMs + 2 * MIN);
      await recordLoginFailure(db, at(LOGIN_THROTTLE.windowMs + 2 * MIN));
      const left = await db.selectFrom("login_failures").select(["email", "at"]).orderBy("id").execute();
      // Failures at 0 and 1 min are past the window at 17 min; the one at 2 min is exactly at its edge, gone too.
      expect(left.map((r) => r.email)).toEqual(["bob@example.com"]);
    });

    it("honours other limits when given", async () => {
      const { db } = store();
      const limits = { ...LOGIN_THROTTLE, windowMs: MIN, maxFailuresPerAccountAddress: 2 };
      await fail(db, "a@example.com", "192.0.2.9", 0);
      await fail(db, "a@example.com", "192.0.2.9", 1000);
      expect(
        await checkLoginThrottle(db, { email: "a@example.com", ip: "192.0.2.9" }, { ...at(2000), limits }),
      ).toEqual({
        allowed: false,
        limitedBy: "email",
        retryAfterSeconds: 58,
      });
    });
  });
}
