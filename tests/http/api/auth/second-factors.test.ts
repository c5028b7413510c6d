// The authenticator app, recovery codes and the admin's policy over real HTTP (next start, on SQLite and
// PostgreSQL): enrol and confirm with codes computed here from the secret by otplib; a password + TOTP sign-in
// (POST /api/auth/login, then /api/auth/second-factor); a code replayed refused; wrong codes counted toward the
// sign-in throttle (429); a recovery code good once, new ones replacing the old; the policy "admins" holding an admin
// without a factor to enrolment (403 second_factor_required) until he enrols, and his last factor kept.
import { generate } from "otplib";
import { describe, expect, it } from "vitest";

import type { GatewayResponse, SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";

const PASSWORD = "a sound passphrase for second factors";
const STEP_MS = 30_000;
const json = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});
/** The code of time step `step` (RFC 6238's T). */
const codeOf = (secret: string, step: number) => generate({ secret, epoch: step * (STEP_MS / 1000) });
const stepNow = () => Math.floor(Date.now() / STEP_MS);
/** The first cookie of `name` a response sets, as `name=value`. */
function cookieFrom(res: GatewayResponse, name: RegExp): string {
  const pair = res.headers
    .getSetCookie()
    .map((line) => line.split(";", 1)[0] ?? "")
    .find((each) => name.test(each.slice(0, each.indexOf("="))));
  if (!pair) throw new Error(`no ${name} cookie in ${res.status} ${res.text}`);
  return pair;
}

describe.each(bothServerStores())("on $name", (serverStore) => {
  const { gateway, client: admin } = setUpGateway({
    store: serverStore,
    signIn: "admin",
    env: { TRUST_PROXY: "1" },
  });

  let people = 0;
  async function newPerson(role = "viewer"): Promise<{ id: string; email: string }> {
    const email = `factor-${++people}@gatehouse.test`;
    const res = await admin.request(
      "/api/admin/users",
      json("POST", { email, name: `Factor ${people}`, role, password: PASSWORD }),
    );
    expect(res.status, res.text).toBe(201);
    return { id: res.json.data.id, email };
  }

  /** Enrols and confirms an app for a signed-in person: its secret, the step used, and the recovery codes answered. */
  async function enrol(client: SignedInClient): Promise<{ secret: string; step: number; codes: string[] | null }> {
    const started = await client.request("/api/auth/totp", json("POST"));
    expect(started.status, started.text).toBe(200);
    const { secret, uri, qr_svg } = started.json.data;
    expect(uri).toContain(`secret=${secret}`);
    expect(qr_svg).toContain("<svg");
    const step = stepNow();
    const confirmed = await client.request(
      "/api/auth/totp/confirm",
      json("POST", { code: await codeOf(secret, step) }),
    );
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.data.factors).toMatchObject({ totp: true });
    return { secret, step, codes: confirmed.json.data.recovery_codes };
  }

  /** The password step: the pending cookie to carry to the second step. */
  async function passwordStep(email: string, address: string): Promise<string> {
    const login = await gateway.request("/api/auth/login", {
      ...json("POST", { email, password: PASSWORD }),
      headers: { "Content-Type": "application/json", "X-CSRF": "1", "X-Forwarded-For": address },
    });
    expect(login.status, login.text).toBe(200);
    expect(login.json.data.second_factor.methods).toContain("totp");
    return cookieFrom(login, /^(__Host-)?gatehouse_2fa$/);
  }

  function secondStep(pending: string, address: string, body: unknown): Promise<GatewayResponse> {
    return gateway.request("/api/auth/second-factor", {
      ...json("POST", body),
      headers: { "Content-Type": "application/json", "X-CSRF": "1", "X-Forwarded-For": address, Cookie: pending },
    });
  }

  it("enrols an app, then signs in with password + code; the same code again is refused", async () => {
    const person = await newPerson();
    const client = await gateway.signIn({ email: person.email, password: PASSWORD });
    const { secret, step, codes } = await enrol(client);
    expect(codes).toHaveLength(10);
    for (const code of codes ?? []) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    // A second app cannot quietly replace the first.
    expect((await client.request("/api/auth/totp", json("POST"))).status).toBe(409);

    const address = "198.51.100.10";
    const code = await codeOf(secret, step + 1);
    const signedIn = await secondStep(await passwordStep(person.email, address), address, { method: "totp", code });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.json.data.user.email).toBe(person.email);
    const session = cookieFrom(signedIn, /^(__Host-)?gatehouse_session$/);
    const me = await gateway.request("/api/auth/me", { headers: { Cookie: session } });
    expect(me.status).toBe(200);

    const replayed = await secondStep(await passwordStep(person.email, address), address, { method: "totp", code });
    expect(replayed.status).toBe(401);
    expect(replayed.json.error.code).toBe("invalid_second_factor");
    // The step before the one used is refused too, though still within the window.
    const older = await secondStep(await passwordStep(person.email, address), address, {
      method: "totp",
      code: await codeOf(secret, step),
    });
    expect(older.status).toBe(401);
  }, 60_000);

  it("counts wrong codes toward the sign-in throttle: 429 after five from one address", async () => {
    const person = await newPerson();
    const { secret, step } = await enrol(await gateway.signIn({ email: person.email, password: PASSWORD }));
    const address = "198.51.100.20";
    const pending = await passwordStep(person.email, address);
    const right = await codeOf(secret, step + 1);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 5; i++) {
      const res = await secondStep(pending, address, { method: "totp", code: wrong });
      expect(res.status, res.text).toBe(401);
    }
    const throttled = await secondStep(pending, address, { method: "totp", code: right });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("retry-after")).toMatch(/^\d+$/);
    const { json: audit } = await admin.request(`/api/admin/audit?action=auth.second_factor_failed`);
    expect(
      audit.data.filter((row: { user_email: string }) => row.user_email === person.email).length,
    ).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it("takes a recovery code once; new codes replace the old", async () => {
    const person = await newPerson();
    const client = await gateway.signIn({ email: person.email, password: PASSWORD });
    const { codes } = await enrol(client);
    const [first, second] = codes ?? [];
    const address = "198.51.100.30";
    const used = await secondStep(await passwordStep(person.email, address), address, {
      method: "recovery",
      code: first!.toUpperCase(),
    });
    expect(used.status, used.text).toBe(200);
    const again = await secondStep(await passwordStep(person.email, address), address, {
      method: "recovery",
      code: first,
    });
    expect(again.status).toBe(401);
    expect(again.json.error.message).toMatch(/each code works once/);

    const factors = await client.request("/api/auth/factors");
    expect(factors.json.data).toMatchObject({ totp: true, recovery_codes_left: 9 });
    const fresh = await client.request("/api/auth/recovery-codes", json("POST"));
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.json.data.recovery_codes).toHaveLength(10);
    const old = await secondStep(await passwordStep(person.email, address), address, {
      method: "recovery",
      code: second,
    });
    expect(old.status).toBe(401);
    const renewed = await secondStep(await passwordStep(person.email, address), address, {
      method: "recovery",
      code: fresh.json.data.recovery_codes[0],
    });
    expect(renewed.status).toBe(200);
  }, 60_000);

  it("policy admins: an admin without a factor may only enrol until he has one, and keeps his last one", async () => {
    const person = await newPerson("admin");
    const viewer = await newPerson("viewer");
    expect((await admin.request("/api/admin/sign-in-policy")).json.data).toMatchObject({ second_factor_policy: "off" });
    const bad = await admin.request("/api/admin/sign-in-policy", json("PUT", { second_factor_policy: "sometimes" }));
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.second_factor_policy).toBe(
      "second_factor_policy must be one of: off, admins, everyone",
    );
    const set = await admin.request("/api/admin/sign-in-policy", json("PUT", { second_factor_policy: "admins" }));
    expect(set.status, set.text).toBe(200);
    expect(set.json.data).toMatchObject({ second_factor_policy: "admins", updated_by: "admin@gatehouse.test" });
    try {
      const held = await gateway.signIn({ email: person.email, password: PASSWORD });
      const refused = await held.request("/api/admin/users");
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe("second_factor_required");
      expect((await held.request("/api/auth/factors")).json.data).toMatchObject({ required: true, totp: false });
      // A viewer is not covered.
      const free = await gateway.signIn({ email: viewer.email, password: PASSWORD });
      expect((await free.request("/api/auth/factors")).status).toBe(200);
      expect((await free.request("/api/auth/factors")).json.data.required).toBe(false);

      await enrol(held);
      expect((await held.request("/api/admin/users")).status).toBe(200);
      const removal = await held.request("/api/auth/totp", json("DELETE"));
      expect(removal.status).toBe(409);
      expect(removal.json.error.message).toMatch(/your only one: add a passkey first/);
      // The viewer may remove his.
      await enrol(free);
      const removed = await free.request("/api/auth/totp", json("DELETE"));
      expect(removed.status, removed.text).toBe(200);
      expect(removed.json.data.factors.totp).toBe(false);
      // Only admins set the policy.
      expect(
        (await free.request("/api/admin/sign-in-policy", json("PUT", { second_factor_policy: "off" }))).status,
      ).toBe(403);
      const { json: audit } = await admin.request("/api/admin/audit?action=auth.factor_policy_update");
      expect(audit.data.find((row: { outcome: string }) => row.outcome === "success")).toMatchObject({
        user_email: "admin@gatehouse.test",
        detail: { second_factor_policy: "admins" },
      });
    } finally {
      await admin.request("/api/admin/sign-in-policy", json("PUT", { second_factor_policy: "off" }));
    }
  }, 60_000);

  it("refuses a wrong confirmation code with a sentence beside the field, and confirming with nothing started", async () => {
    const person = await newPerson();
    const client = await gateway.signIn({ email: person.email, password: PASSWORD });
    const none = await client.request("/api/auth/totp/confirm", json("POST", { code: "123456" }));
    expect(none.status).toBe(409);
    expect((await client.request("/api/auth/totp", json("DELETE"))).status).toBe(404);
    expect((await client.request("/api/auth/recovery-codes", json("POST"))).status).toBe(409);
    const started = await client.request("/api/auth/totp", json("POST"));
    const right = await codeOf(started.json.data.secret, stepNow());
    const wrong = await client.request(
      "/api/auth/totp/confirm",
      json("POST", { code: String((Number(right) + 1) % 1_000_000).padStart(6, "0") }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.fields.code).toMatch(/not the one your authenticator app shows now/);
    const malformed = await client.request("/api/auth/totp/confirm", json("POST", { code: "12ab" }));
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.fields.code).toBe("code must be the 6 digits your authenticator app shows");
  }, 60_000);
});
