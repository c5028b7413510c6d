// Passkeys over real HTTP (next start) on SQLite and PostgreSQL, driven by the software authenticator: registration,
// the list (only his own), sign-in with a passkey alone, the second step after a password, and the refusals the
// issue names — an assertion for another origin, a stale challenge (used once already, or expired), another
// person's passkey id, wrong assertions counting toward the sign-in throttle — plus the last second factor kept.
import { describe, expect, it } from "vitest";

import { registerPasskey, registrationOptions } from "@/lib/auth/factors/passkeys";
import { writeSecondFactorPolicy } from "@/lib/auth/factors/policy";
import { parseDatabaseUrl } from "@/lib/config/store";
import { PasskeyRegistrationSchema } from "@/lib/contract/passkeys";
import { openDb } from "@/lib/db";

import type { GatewayProcess, GatewayResponse, SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { SoftwareAuthenticator } from "@/tests/support/software-authenticator";
import { bothServerStores } from "@/tests/support/store-backends";

const json = (method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json", "X-CSRF": "1", ...headers },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/** A cookie jar of one browser: the cookies each answer sets, sent with the next request. */
class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly gateway: GatewayProcess) {}
  async request(path: string, init: RequestInit = {}): Promise<GatewayResponse> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0)
      headers.set("Cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const res = await this.gateway.request(path, { ...init, headers });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";", 1)[0] ?? "";
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

describe.each(bothServerStores())("passkeys on $name", (store) => {
  const { gateway, client: admin } = setUpGateway({
    store,
    signIn: "admin",
    env: { TRUST_PROXY: "1" },
    startTimeoutMs: 60_000,
  });
  const origin = () => gateway.url;

  /** Registers a passkey on `device` for the person of `client` (the options, the device, the portal). */
  async function register(client: SignedInClient | Browser, device: SoftwareAuthenticator, name: string) {
    const options = await client.request("/api/auth/passkeys/options", json("POST"));
    expect(options.status, options.text).toBe(200);
    const res = await client.request(
      "/api/auth/passkeys",
      json("POST", { name, response: device.register(options.json.data, origin()) }),
    );
    expect(res.status, res.text).toBe(201);
    return res.json.data as { id: string; name: string };
  }

  async function signInOptions(from = "192.0.2.1") {
    const res = await gateway.request(
      "/api/auth/passkey/options",
      json("POST", { purpose: "sign_in" }, { "X-Forwarded-For": from }),
    );
    expect(res.status, res.text).toBe(200);
    return res.json.data;
  }

  const passkeySignIn = (response: unknown, from = "192.0.2.1") =>
    gateway.request("/api/auth/passkey", json("POST", { response }, { "X-Forwarded-For": from }));

  /** A new password user (through the admin API) and his own browser, signed in with his password. */
  let made = 0;
  async function newPerson(role = "viewer") {
    made += 1;
    const email = `passkey-${made}-${store.name.toLowerCase()}@gatehouse.test`;
    const password = "a sound passphrase for passkeys";
    const created = await admin.request(
      "/api/admin/users",
      json("POST", { email, name: `Passkey ${made}`, role, password }),
    );
    expect(created.status, created.text).toBe(201);
    const browser = new Browser(gateway);
    const signedIn = await browser.request("/api/auth/login", json("POST", { email, password }));
    expect(signedIn.status, signedIn.text).toBe(200);
    return { id: created.json.data.id as string, email, password, browser };
  }

  async function withStore<T>(work: (db: Awaited<ReturnType<typeof openDb>>["db"]) => Promise<T>): Promise<T> {
    const opened = await openDb(parseDatabaseUrl(gateway.databaseUrl));
    try {
      return await work(opened.db);
    } finally {
      await opened.close();
    }
  }

  it("registers named passkeys, lists them, and signs in with one alone (audited)", async () => {
    const person = await newPerson();
    const device = new SoftwareAuthenticator();
    const laptop = await register(person.browser, device, "Laptop");
    await register(person.browser, device, "Phone");
    const list = await person.browser.request("/api/auth/passkeys");
    expect(list.json.data.map((p: { name: string }) => p.name)).toEqual(["Laptop", "Phone"]);
    expect(list.json.data[0]).toMatchObject({ id: laptop.id, last_used_at: null });
    const factors = await person.browser.request("/api/auth/factors");
    expect(factors.json.data).toMatchObject({ passkeys: 2 });

    const signedIn = await passkeySignIn(
      device.assert(await signInOptions(), origin(), { passkey: device.passkeys[0] }),
    );
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.json.data.user).toMatchObject({ id: person.id, email: person.email });
    expect(signedIn.headers.getSetCookie().join("\n")).toMatch(/gatehouse_session=/);

    const audit = await admin.request(`/api/admin/audit?user=${encodeURIComponent(person.email)}&per_page=100`);
    const actions = audit.json.data.map((row: { action: string; detail?: unknown }) => [row.action, row.detail]);
    expect(actions).toContainEqual(["auth.login", { passkey: true }]);
    expect(actions).toContainEqual([
      "auth.factor_enrolled",
      expect.objectContaining({ kind: "passkey", name: "Laptop" }),
    ]);
    const used = await person.browser.request("/api/auth/passkeys");
    expect(used.json.data[0].last_used_at).not.toBeNull();
  }, 60_000);

  it("refuses an assertion whose client data names another origin", async () => {
    const person = await newPerson();
    const device = new SoftwareAuthenticator();
    await register(person.browser, device, "Laptop");
    const res = await passkeySignIn(device.assert(await signInOptions(), "https://evil.example"));
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("invalid_credentials");
    expect(res.headers.getSetCookie().join("\n")).not.toMatch(/gatehouse_session=[^;]/);
  }, 30_000);

  it("refuses a stale challenge: used once already, or expired", async () => {
    const person = await newPerson();
    const device = new SoftwareAuthenticator();
    await register(person.browser, device, "Laptop");
    const answer = device.assert(await signInOptions(), origin());
    expect((await passkeySignIn(answer)).status).toBe(200);
    const replayed = await passkeySignIn(answer);
    expect(replayed.status).toBe(401);

    const options = await signInOptions();
    await withStore((db) =>
      db
        .updateTable("auth_challenges")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("challenge", "=", options.challenge)
        .execute(),
    );
    expect((await passkeySignIn(device.assert(options, origin()))).status).toBe(401);

    // A registration's challenge is no sign-in's.
    const registering = await person.browser.request("/api/auth/passkeys/options", json("POST"));
    expect((await passkeySignIn(device.assert({ challenge: registering.json.data.challenge }, origin()))).status).toBe(
      401,
    );
  }, 30_000);

  it("renames and removes only his own passkeys: another person's id is a 404", async () => {
    const [owner, other] = [await newPerson(), await newPerson()];
    const passkey = await register(owner.browser, new SoftwareAuthenticator(), "Laptop");
    const renamed = await other.browser.request(`/api/auth/passkeys/${passkey.id}`, json("PATCH", { name: "Mine" }));
    expect(renamed.status).toBe(404);
    expect(renamed.json.error.message).toBe(`You have no passkey with id ${passkey.id}.`);
    expect((await other.browser.request(`/api/auth/passkeys/${passkey.id}`, json("DELETE"))).status).toBe(404);
    const own = await owner.browser.request(
      `/api/auth/passkeys/${passkey.id}`,
      json("PATCH", { name: " Work laptop " }),
    );
    expect(own.json.data.name).toBe("Work laptop");
    const empty = await owner.browser.request(`/api/auth/passkeys/${passkey.id}`, json("PATCH", { name: " " }));
    expect(empty.status).toBe(400);
    expect(empty.json.error.fields.name).toMatch(/must not be empty/);
    const removed = await owner.browser.request(`/api/auth/passkeys/${passkey.id}`, json("DELETE"));
    expect(removed.status).toBe(200);
    expect((await owner.browser.request("/api/auth/passkeys")).json.data).toEqual([]);
    const audit = await admin.request(
      `/api/admin/audit?user=${encodeURIComponent(owner.email)}&action=auth.factor_removed`,
    );
    expect(audit.json.data[0]).toMatchObject({ outcome: "success", detail: { kind: "passkey", name: "Work laptop" } });
  }, 30_000);

  it("counts wrong assertions toward the sign-in throttle, from the passkey alone and in the second step", async () => {
    const person = await newPerson();
    const device = new SoftwareAuthenticator();
    await register(person.browser, device, "Laptop");
    const from = "198.51.100.40";
    for (let i = 0; i < 5; i++) {
      const wrong = await passkeySignIn(
        device.assert(await signInOptions(from), origin(), { wrongSignature: true }),
        from,
      );
      expect(wrong.status).toBe(401);
    }
    const right = await passkeySignIn(device.assert(await signInOptions(from), origin()), from);
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toMatch(/^\d+$/);
    // The owner from his own address still signs in.
    expect((await passkeySignIn(device.assert(await signInOptions(), origin()), "198.51.100.41")).status).toBe(200);

    // The second step: the password was right, the passkey's answers are wrong.
    const browser = new Browser(gateway);
    const headers = { "X-Forwarded-For": "198.51.100.42" };
    const first = await browser.request(
      "/api/auth/login",
      json("POST", { email: person.email, password: person.password }, headers),
    );
    expect(first.json.data.second_factor.methods).toEqual(["passkey"]);
    for (let i = 0; i < 5; i++) {
      const options = await browser.request(
        "/api/auth/passkey/options",
        json("POST", { purpose: "second_factor" }, headers),
      );
      expect(options.status, options.text).toBe(200);
      const response = device.assert(options.json.data, origin(), { wrongSignature: true });
      const wrong = await browser.request(
        "/api/auth/second-factor",
        json("POST", { method: "passkey", response }, headers),
      );
      expect(wrong.status).toBe(401);
    }
    const options = await browser.request(
      "/api/auth/passkey/options",
      json("POST", { purpose: "second_factor" }, headers),
    );
    const blocked = await browser.request(
      "/api/auth/second-factor",
      json("POST", { method: "passkey", response: device.assert(options.json.data, origin()) }, headers),
    );
    expect(blocked.status).toBe(429);
  }, 60_000);

  it("takes a passkey as the second step after the password", async () => {
    const person = await newPerson();
    const device = new SoftwareAuthenticator();
    await register(person.browser, device, "Laptop");
    const browser = new Browser(gateway);
    const withoutPending = await browser.request(
      "/api/auth/passkey/options",
      json("POST", { purpose: "second_factor" }),
    );
    expect(withoutPending.status).toBe(401);
    expect(withoutPending.json.error.code).toBe("second_step_expired");

    const first = await browser.request(
      "/api/auth/login",
      json("POST", { email: person.email, password: person.password }),
    );
    expect(first.json.data.second_factor.methods).toEqual(["passkey"]);
    const options = await browser.request("/api/auth/passkey/options", json("POST", { purpose: "second_factor" }));
    expect(options.json.data.allowCredentials.map((c: { id: string }) => c.id)).toEqual([device.passkeys[0]!.id]);
    // Another origin is refused here too.
    const foreign = await browser.request(
      "/api/auth/second-factor",
      json("POST", { method: "passkey", response: device.assert(options.json.data, "https://evil.example") }),
    );
    expect(foreign.status).toBe(401);
    const again = await browser.request("/api/auth/passkey/options", json("POST", { purpose: "second_factor" }));
    const done = await browser.request(
      "/api/auth/second-factor",
      json("POST", { method: "passkey", response: device.assert(again.json.data, origin()) }),
    );
    expect(done.status, done.text).toBe(200);
    expect((await browser.request("/api/auth/me")).json.data.user.email).toBe(person.email);

    // A step-up's options are the signed-in person's.
    const stepUp = await browser.request("/api/auth/passkey/options", json("POST", { purpose: "step_up" }));
    expect(stepUp.status).toBe(200);
    expect(stepUp.json.data.allowCredentials).toHaveLength(1);
    const anonymous = await gateway.request("/api/auth/passkey/options", json("POST", { purpose: "step_up" }));
    expect(anonymous.status).toBe(401);
  }, 60_000);

  it("keeps the last second factor of someone the policy covers (409), and frees an enrolling session once he adds one", async () => {
    const person = await newPerson("editor");
    await withStore((db) => writeSecondFactorPolicy(db, "everyone", "test"));
    try {
      // Signed in again under the policy: held to enrolment until he registers a passkey.
      const browser = new Browser(gateway);
      await browser.request("/api/auth/login", json("POST", { email: person.email, password: person.password }));
      expect((await browser.request("/api/reports")).json.error.code).toBe("second_factor_required");
      const device = new SoftwareAuthenticator();
      const first = await register(browser, device, "Laptop");
      expect((await browser.request("/api/auth/me")).status).toBe(200);
      expect((await browser.request("/api/tokens")).status).toBe(200);

      const refused = await browser.request(`/api/auth/passkeys/${first.id}`, json("DELETE"));
      expect(refused.status).toBe(409);
      expect(refused.json.error.message).toMatch(/last second factor/);
      const second = await register(browser, device, "Phone");
      expect((await browser.request(`/api/auth/passkeys/${first.id}`, json("DELETE"))).status).toBe(200);
      expect((await browser.request(`/api/auth/passkeys/${second.id}`, json("DELETE"))).status).toBe(409);
    } finally {
      await withStore((db) => writeSecondFactorPolicy(db, "off", "test"));
    }
  }, 60_000);

  it("refuses a sign-in with a passkey of a disabled person, and passkeys for single sign-on or signed-out callers", async () => {
    const person = await newPerson();
    const device = new SoftwareAuthenticator();
    await register(person.browser, device, "Laptop");
    expect((await admin.request(`/api/admin/users/${person.id}`, json("PATCH", { disabled: true }))).status).toBe(200);
    expect((await passkeySignIn(device.assert(await signInOptions(), origin()))).status).toBe(401);
    expect((await gateway.request("/api/auth/passkeys/options", json("POST"))).status).toBe(401);
    expect((await gateway.request("/api/auth/passkeys")).status).toBe(401);
    const bad = await gateway.request("/api/auth/passkey/options", json("POST", { purpose: "register" }));
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.purpose).toMatch(/sign_in, second_factor, step_up/);
  }, 30_000);
});

describe("passkeys with PASSWORD_LOGIN=off", () => {
  // Signing in to Gatehouse itself is for the break-glass admin alone (ADMIN_EMAIL): with a passkey too.
  const { gateway, client: admin } = setUpGateway({ sso: true, signIn: "admin", env: { PASSWORD_LOGIN: "off" } });

  async function signInWith(device: SoftwareAuthenticator) {
    const options = await gateway.request("/api/auth/passkey/options", json("POST", { purpose: "sign_in" }));
    return gateway.request(
      "/api/auth/passkey",
      json("POST", { response: device.assert(options.json.data, gateway.url) }),
    );
  }

  it("signs in the break-glass admin with his passkey, and refuses anyone else's with a sentence", async () => {
    const own = new SoftwareAuthenticator();
    const options = await admin.request("/api/auth/passkeys/options", json("POST"));
    const registered = await admin.request(
      "/api/auth/passkeys",
      json("POST", { name: "Break-glass key", response: own.register(options.json.data, gateway.url) }),
    );
    expect(registered.status, registered.text).toBe(201);
    expect((await signInWith(own)).status).toBe(200);

    // A local person who registered a passkey before password sign-in was turned off (made here in the store).
    const created = await admin.request(
      "/api/admin/users",
      json("POST", {
        email: "local-passkey@gatehouse.test",
        name: "Local",
        role: "editor",
        password: "a local passphrase here",
      }),
    );
    expect(created.status, created.text).toBe(201);
    const theirs = new SoftwareAuthenticator();
    const opened = await openDb(parseDatabaseUrl(gateway.databaseUrl));
    try {
      const person = { id: created.json.data.id, email: "local-passkey@gatehouse.test", name: "Local" };
      const rp = { origin: gateway.url, rpID: new URL(gateway.url).hostname };
      const made = await registrationOptions(opened.db, person, rp);
      await registerPasskey(
        opened.db,
        person,
        { name: "Laptop", response: PasskeyRegistrationSchema.parse(theirs.register(made, gateway.url)) },
        rp,
      );
    } finally {
      await opened.close();
    }
    const refused = await signInWith(theirs);
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({
      code: "password_login_off",
      message: "Signing in to Gatehouse itself is turned off on this portal: sign in with Test IdP.",
    });
  }, 30_000);
});
