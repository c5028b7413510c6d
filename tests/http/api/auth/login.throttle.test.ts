// Sign-in throttling that cannot be turned against a user, over real HTTP (next start, real SQLite). What the
// attack pass did, each answered here:
// - 5 wrong passwords from anywhere locked the account (the only admin included) for 15 minutes, even for the
//   correct password from another address, and an admin's password reset did not lift it;
// - 2,000 throttled sign-ins for a locked email wrote 2,000 audit rows;
// - the per-address limit counted each IPv6 address of one /64 apart;
// - without TRUST_PROXY, 120 sign-ins with unknown emails, 40 at once, slowed a real sign-in to 8.3 s.
import { describe, expect, it } from "vitest";

import { BUSY_RETRY_AFTER_SECONDS } from "@/lib/auth/sign-in";

import {
  sandboxEnv,
  startGateway,
  TEST_ADMIN,
  type GatewayProcess,
  type GatewayResponse,
} from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const { sandbox, gateway, client: admin } = setUpGateway({ signIn: "admin", env: { TRUST_PROXY: "1" } });

const jsonInit = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

function login(target: GatewayProcess, email: string, password: string, address?: string): Promise<GatewayResponse> {
  return target.request(
    "/api/auth/login",
    jsonInit("POST", { email, password }, { "X-CSRF": "1", ...(address ? { "X-Forwarded-For": address } : {}) }),
  );
}

let users = 0;
async function newUser(role = "viewer"): Promise<{ id: string; email: string; password: string }> {
  const email = `throttle-${++users}@gatehouse.test`;
  const password = "a sound passphrase for throttling";
  const res = await admin.request(
    "/api/admin/users",
    jsonInit("POST", { email, name: `Throttle ${users}`, role, password }),
  );
  expect(res.status, res.text).toBe(201);
  return { id: res.json.data.id, email, password };
}

describe("failed sign-ins from one address do not lock the account elsewhere", () => {
  it("5 wrong passwords from address A: A is refused, the correct password from B signs in (after a short delay)", async () => {
    const victim = await newUser("admin");
    for (let i = 0; i < 5; i++)
      expect((await login(gateway, victim.email, `wrong guess ${i}`, "203.0.113.10")).status).toBe(401);
    const fromAttacker = await login(gateway, victim.email, victim.password, "203.0.113.10");
    expect(fromAttacker.status).toBe(429);
    expect(fromAttacker.json.error.message).toMatch(/^Too many failed sign-ins for this email\. Try again in \d+ s\.$/);
    const fromOwner = await login(gateway, victim.email, victim.password, "192.0.2.20");
    expect(fromOwner.status).toBe(200);
    // The owner's success does not forgive the attacker's address.
    expect((await login(gateway, victim.email, victim.password, "203.0.113.10")).status).toBe(429);
  }, 30_000);

  it("an admin's password reset, or unlock, lifts it from every address", async () => {
    for (const lift of ["reset", "unlock"] as const) {
      const victim = await newUser();
      for (let i = 0; i < 5; i++) await login(gateway, victim.email, `wrong guess ${i}`, "203.0.113.11");
      expect((await login(gateway, victim.email, victim.password, "203.0.113.11")).status).toBe(429);
      let password = victim.password;
      if (lift === "reset") {
        password = "a brand new sound passphrase";
        expect((await admin.request(`/api/admin/users/${victim.id}`, jsonInit("PATCH", { password }))).status).toBe(
          200,
        );
      } else {
        const unlocked = await admin.request(`/api/admin/users/${victim.id}/unlock`, { method: "POST" });
        expect(unlocked.status).toBe(200);
        expect(unlocked.json.data.email).toBe(victim.email);
      }
      const after = await login(gateway, victim.email, password, "203.0.113.11");
      expect(after.status, lift).toBe(200);
    }
    const audit = await admin.request("/api/admin/audit?action=user.unlock");
    expect(audit.json.data[0]).toMatchObject({ action: "user.unlock", outcome: "success", target: { type: "user" } });
  }, 30_000);
});

describe("a flood of throttled sign-ins", () => {
  it("is one audit row with a count, not one row per attempt", async () => {
    const victim = await newUser();
    for (let i = 0; i < 5; i++) await login(gateway, victim.email, `wrong guess ${i}`, "203.0.113.12");
    const statuses: number[] = [];
    for (let round = 0; round < 15; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => login(gateway, victim.email, "another guess", "203.0.113.12")),
      );
      statuses.push(...answers.map((res) => res.status));
    }
    expect(statuses).toEqual(Array(300).fill(429));
    const rows = (
      await admin.request(
        `/api/admin/audit?user=${encodeURIComponent(victim.email)}&action=auth.login_failed&per_page=100`,
      )
    ).json.data as Array<{
      outcome: string;
      count: number;
    }>;
    expect(rows.filter((row) => row.outcome === "failure")).toHaveLength(5);
    expect(rows.filter((row) => row.outcome === "denied").map((row) => row.count)).toEqual([300]);
  }, 60_000);
});

describe("IPv6 clients", () => {
  it("count per /64: 20 failures from ::1…::14 of one /64 refuse its ::99, not another /64", async () => {
    for (let i = 1; i <= 20; i++) {
      expect(
        (await login(gateway, `spray-v6-${i}@gatehouse.test`, "Summer2025!", `2001:db8:aa:bb::${i.toString(16)}`))
          .status,
      ).toBe(401);
    }
    const sameBlock = await login(gateway, TEST_ADMIN.email, TEST_ADMIN.password, "2001:db8:aa:bb::99");
    expect(sameBlock.status).toBe(429);
    expect(sameBlock.json.error.message).toMatch(/from this address/);
    expect((await login(gateway, TEST_ADMIN.email, TEST_ADMIN.password, "2001:db8:aa:bc::1")).status).toBe(200);
  }, 30_000);
});

describe("without TRUST_PROXY, a flood of sign-ins with unknown emails", () => {
  it("hashes only a few at once: the rest wait briefly, then 503 with Retry-After; a real sign-in still gets an answer", async () => {
    const direct = await startGateway(sandboxEnv(sandbox));
    try {
      const flood = Promise.all(
        Array.from({ length: 3 }, async (_, wave) => {
          const answers: GatewayResponse[] = [];
          for (let i = 0; i < 40; i++)
            answers.push(await login(direct, `nobody-${wave}-${i}@gatehouse.test`, "some guess or other"));
          return answers;
        }).concat(
          Array.from({ length: 37 }, async (_, lane) => {
            const answers: GatewayResponse[] = [];
            for (let i = 0; i < 2; i++)
              answers.push(await login(direct, `nobody-lane-${lane}-${i}@gatehouse.test`, "some guess or other"));
            return answers;
          }),
        ),
      );
      const real = await login(direct, TEST_ADMIN.email, TEST_ADMIN.password);
      const answers = (await flood).flat();
      expect(answers).toHaveLength(194);
      const busy = answers.filter((res) => res.status === 503);
      expect(answers.every((res) => res.status === 401 || res.status === 503)).toBe(true);
      expect(busy.length).toBeGreaterThan(0);
      for (const res of busy) {
        expect(res.json.error.code).toBe("server_busy");
        expect(res.headers.get("retry-after")).toBe(String(BUSY_RETRY_AFTER_SECONDS));
      }
      expect([200, 503]).toContain(real.status);
    } finally {
      await direct.stop();
    }
  }, 120_000);
});
