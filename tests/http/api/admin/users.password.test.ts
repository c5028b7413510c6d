// The password policy over real HTTP and at start: the admin API refuses what the attack pass got through
// (a repeated letter, a common password, the account's own email, zero-width spaces, NUL characters) with a
// message naming the rule, and a start with such an ADMIN_PASSWORD stops with one line naming the variable.
import { describe, expect, it } from "vitest";

import { sandboxEnv, startGatewayExpectingFailure } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

const { sandbox, gateway, client: admin } = setUpGateway({ signIn: "admin" });

const REFUSED: Array<[string, string, RegExp]> = [
  [
    "one letter twelve times",
    "aaaaaaaaaaaa",
    /^password is too easy to guess: Repeated characters like "aaa" are easy to guess\./,
  ],
  [
    "a common password",
    "password1234",
    /^password is too easy to guess: This is similar to a commonly used password\./,
  ],
  ["the account's own email", "nora.new@example.com", /^password must not contain the account's email$/],
  ["twelve zero-width spaces", "\u200b".repeat(12), /^password must not be only spaces or invisible characters$/],
  [
    "twelve NUL characters",
    "\u0000".repeat(12),
    /^password must not contain control characters \(U\+0000 at position 1\)$/,
  ],
];

describe("the admin API", () => {
  it.each(REFUSED)("refuses %s as a new user's password, naming the rule", async (_, password, message) => {
    const res = await admin.request(
      "/api/admin/users",
      json("POST", { email: "nora.new@example.com", name: "Nora New", role: "viewer", password }),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_input");
    expect(res.json.error.fields.password).toMatch(message);
    expect(res.text).not.toContain(password === "nora.new@example.com" ? "\u0000" : password);
  });

  it("refuses the same passwords in a password reset, the account's email judged against that account", async () => {
    const created = await admin.request(
      "/api/admin/users",
      json("POST", {
        email: "olga.old@example.com",
        name: "Olga Old",
        role: "viewer",
        password: "a sound first passphrase",
      }),
    );
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;
    for (const password of [
      "aaaaaaaaaaaa",
      "password1234",
      "olga.old@example.com",
      "\u200b".repeat(12),
      "\u0000".repeat(12),
    ]) {
      const res = await admin.request(`/api/admin/users/${id}`, json("PATCH", { password }));
      expect(res.status, JSON.stringify(password)).toBe(400);
      expect(res.json.error.fields.password).toMatch(/^password (is too easy to guess|must not)/);
    }
    // None of them was set: the first password still signs in, and a sound one is taken.
    await gateway.signIn({ email: "olga.old@example.com", password: "a sound first passphrase" });
    expect(
      (await admin.request(`/api/admin/users/${id}`, json("PATCH", { password: "another sound passphrase" }))).status,
    ).toBe(200);
    await gateway.signIn({ email: "olga.old@example.com", password: "another sound passphrase" });
  });
});

describe("ADMIN_PASSWORD at start", () => {
  it.each([
    ["a common password", "password1234", /ADMIN_PASSWORD: is too easy to guess/],
    ["the admin's own email", "root@example.com", /ADMIN_PASSWORD: must not contain the account's email/],
    ["zero-width spaces", "\u200b".repeat(12), /ADMIN_PASSWORD: must not be only spaces or invisible characters/],
  ])("refuses %s in one line, without echoing it", async (_, password, line) => {
    const { code, output } = await startGatewayExpectingFailure(
      sandboxEnv(sandbox, { ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: password }),
    );
    expect(code).not.toBe(0);
    expect(output.join("\n")).toMatch(line);
    expect(output.join("\n")).not.toMatch(/^\s+at /m);
  });

  it("refuses a password for a service account with a sentence, and sets nothing", async () => {
    const created = await admin.request(
      "/api/admin/users",
      json("POST", { email: "ledger.bot@example.com", name: "Ledger bot", role: "support", service: true }),
    );
    expect(created.status, created.text).toBe(201);
    const res = await admin.request(
      `/api/admin/users/${created.json.data.id}`,
      json("PATCH", { password: "a sound passphrase for a bot" }),
    );
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe("invalid_input");
    expect(res.json.error.message).toBe(
      "Service accounts have no password: ledger.bot@example.com never signs in and acts only through the API tokens an admin makes for it.",
    );
    expect(res.json.error.fields.password).toBe(res.json.error.message);
    const after = (await admin.request("/api/admin/users")).json.data.find(
      (user: { id: string }) => user.id === created.json.data.id,
    );
    expect(after.updated_at).toBe(created.json.data.updated_at);
  });
});
