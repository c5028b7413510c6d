// Every person's API tokens, for an admin, over real HTTP (next start ↔ sandbox): listing them (all, or one
// person's), revoking anyone's, and recovery — an admin's password reset or disabling revokes the person's tokens
// unless told not to, each revocation an audit row, and enabling the account again revives none of them.
import { describe, expect, it } from "vitest";

import type { GatewayResponse, SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const { gateway, client: admin } = setUpGateway({ signIn: "admin", env: { TRUST_PROXY: "1" } });

const json = (body: unknown, method = "POST"): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

let people = 0;
/** A new person of `role`, signed in. */
async function newPerson(role: "viewer" | "support") {
  const email = `person-${++people}@admin-tokens.test`;
  const password = `a long password for person ${people}`;
  const created = await admin.request("/api/admin/users", json({ email, name: `Person ${people}`, role, password }));
  expect(created.status, created.text).toBe(201);
  return { id: created.json.data.id as string, email, client: await gateway.signIn({ email, password }) };
}

async function makeToken(client: SignedInClient, name = "script"): Promise<{ id: string; secret: string }> {
  const res = await client.request("/api/tokens", json({ name, scopes: ["items:read"], expires_in_days: 30 }));
  expect(res.status, res.text).toBe(201);
  return { id: res.json.data.id, secret: res.json.data.secret };
}

const requestWithToken = (secret: string): Promise<GatewayResponse> =>
  gateway.request("/api/auth/me", {
    headers: { Authorization: `Bearer ${secret}`, "X-Forwarded-For": "203.0.113.20" },
  });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON rows
async function revocationRows(tokenId: string): Promise<Array<Record<string, any>>> {
  const res = await admin.request("/api/admin/audit?action=token.revoke&per_page=100");
  expect(res.status, res.text).toBe(200);
  return res.json.data.filter((row: { target?: { id?: string } }) => row.target?.id === tokenId);
}

describe("an admin sees every person's tokens", () => {
  it("lists them all, or one person's with user_id, never a secret; to no one else", async () => {
    const [first, second] = [await newPerson("support"), await newPerson("viewer")];
    const [mine, theirs] = [await makeToken(first.client, "first's"), await makeToken(second.client, "second's")];

    const all = await admin.request("/api/admin/tokens");
    expect(all.status, all.text).toBe(200);
    const ids = all.json.data.map((token: { id: string }) => token.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect(all.json.data.find((token: { id: string }) => token.id === mine.id)).toMatchObject({
      name: "first's",
      user: { id: first.id, email: first.email },
    });
    expect(all.text).not.toContain(mine.secret);

    const one = await admin.request(`/api/admin/tokens?user_id=${second.id}`);
    expect(one.json.data.map((token: { id: string }) => token.id)).toEqual([theirs.id]);

    const refused = await first.client.request("/api/admin/tokens");
    expect([refused.status, refused.json.error.code]).toEqual([403, "forbidden"]);
    const bad = await admin.request("/api/admin/tokens?user_id=someone");
    expect([bad.status, bad.json.error.fields?.user_id]).toEqual([400, expect.stringContaining("UUID")]);
  });

  it("revokes anyone's token: the next request with it is refused, and the audit row names the admin", async () => {
    const [owner, stranger] = [await newPerson("support"), await newPerson("viewer")];
    const token = await makeToken(owner.client);
    expect((await requestWithToken(token.secret)).status).toBe(200);
    // Another person who is not an admin cannot.
    expect((await stranger.client.request(`/api/tokens/${token.id}`, { method: "DELETE" })).status).toBe(404);

    const revoked = await admin.request(`/api/tokens/${token.id}`, { method: "DELETE" });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.json.data).toMatchObject({ status: "revoked", user: { id: owner.id } });
    const refused = await requestWithToken(token.secret);
    expect([refused.status, refused.json.error.code]).toEqual([401, "token_revoked"]);
    // The stranger's attempt is a row of its own, not a revocation.
    const revocations = (await revocationRows(token.id)).filter((row) => row.outcome === "success");
    expect(revocations).toEqual([expect.objectContaining({ user_email: "admin@gatehouse.test" })]);
  });
});

describe("recovering an account revokes its tokens", () => {
  it("a password reset revokes every token of the person, one audit row each", async () => {
    const person = await newPerson("support");
    const tokens = [await makeToken(person.client, "one"), await makeToken(person.client, "two")];
    const reset = await admin.request(
      `/api/admin/users/${person.id}`,
      json({ password: "a brand new password 77" }, "PATCH"),
    );
    expect(reset.status, reset.text).toBe(200);
    for (const token of tokens) {
      const refused = await requestWithToken(token.secret);
      expect([refused.status, refused.json.error.code]).toEqual([401, "token_revoked"]);
      expect(await revocationRows(token.id)).toEqual([
        expect.objectContaining({
          outcome: "success",
          user_email: "admin@gatehouse.test",
          detail: expect.objectContaining({ reason: "password_reset", owner: person.email }),
        }),
      ]);
    }
  });

  it("keeps them with revoke_tokens: false", async () => {
    const person = await newPerson("support");
    const token = await makeToken(person.client);
    expect(
      (
        await admin.request(
          `/api/admin/users/${person.id}`,
          json({ password: "a brand new password 78", revoke_tokens: false }, "PATCH"),
        )
      ).status,
    ).toBe(200);
    expect((await requestWithToken(token.secret)).status).toBe(200);
  });

  it("disabling revokes them, and enabling the person again revives none", async () => {
    const person = await newPerson("viewer");
    const token = await makeToken(person.client);
    expect((await admin.request(`/api/admin/users/${person.id}`, json({ disabled: true }, "PATCH"))).status).toBe(200);
    expect((await admin.request(`/api/admin/users/${person.id}`, json({ disabled: false }, "PATCH"))).status).toBe(200);
    const refused = await requestWithToken(token.secret);
    expect([refused.status, refused.json.error.code]).toEqual([401, "token_revoked"]);
    expect(await revocationRows(token.id)).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ reason: "user_disabled" }) }),
    ]);
  });

  it("refuses revoke_tokens without a new password or disabling, naming the field", async () => {
    const person = await newPerson("viewer");
    const res = await admin.request(
      `/api/admin/users/${person.id}`,
      json({ name: "Renamed", revoke_tokens: true }, "PATCH"),
    );
    expect([res.status, res.json.error.code]).toEqual([400, "invalid_input"]);
    expect(res.json.error.fields.revoke_tokens).toContain("goes with a new password or disabled: true");
  });
});
