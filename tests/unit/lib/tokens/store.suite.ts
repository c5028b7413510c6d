// The tokens store, run on every backend (tests/unit/lib/tokens/store.test.ts: SQLite; tests/unit/lib/db/postgres.test.ts).
import { describe, expect, it } from "vitest";

import { createUser, updateUser, type CreateUserInput, type User } from "@/lib/auth/users";
import type { TokenCreateBody } from "@/lib/contract/tokens";
import type { Db } from "@/lib/db";
import {
  checkToken,
  createToken,
  LAST_USED_EVERY_MS,
  listTokens,
  noteTokenUse,
  revokeToken,
  TokenError,
} from "@/lib/tokens/store";

import { fast, useStore, type Backend } from "@/tests/support/store-backends";

const PASSWORD = "correct horse battery";
const person = (email: string, role: CreateUserInput["role"]): CreateUserInput => ({
  email,
  name: email.split("@")[0]!,
  role,
  password: PASSWORD,
});
const body = (overrides: Partial<TokenCreateBody> = {}): TokenCreateBody => ({
  name: "helpdesk",
  scopes: ["purchases:validate"],
  expires_in_days: 30,
  ...overrides,
});

async function refusal(work: Promise<unknown>): Promise<{ code: string; field: string | null; message: string }> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(TokenError);
    const { code, field, message } = error as TokenError;
    return { code, field, message };
  }
  throw new Error("expected a TokenError");
}

export function tokensStoreSuite(backend: Backend): void {
  describe(`tokens store (${backend.name})`, () => {
    const store = useStore(backend);
    let db: Db;
    let admin: User;
    let support: User;
    let service: User;

    const setUp = async () => {
      db = store().db;
      admin = await createUser(db, person("admin@example.com", "admin"), fast);
      support = await createUser(db, person("support@example.com", "support"), fast);
      service = await createUser(db, { email: "bot@example.com", name: "Bot", role: "editor", service: true }, fast);
    };

    it("makes a token whose secret is checked back to its owner and scopes, and stores only its hash", async () => {
      await setUp();
      const now = new Date("2026-11-24T10:00:00Z");
      const { token, secret } = await createToken(db, support, body(), now);
      expect(token.expiresAt).toBe("2026-12-24T10:00:00.000Z");
      const check = await checkToken(db, secret, null, now);
      expect(check.ok && check.user.id).toBe(support.id);
      expect(check.ok && check.token.scopes).toEqual(["purchases:validate"]);
      const rows = await db.selectFrom("api_tokens").selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(secret.slice(4));
    });

    it("refuses scopes the owner's role lacks, never-expiring tokens for people, past or far expiries, bad ranges", async () => {
      await setUp();
      const now = new Date("2026-11-24T10:00:00Z");
      expect(await refusal(createToken(db, support, body({ scopes: ["reports:read"] }), now))).toMatchObject({
        code: "invalid",
        field: "scopes",
      });
      expect(
        await refusal(createToken(db, support, body({ expires_in_days: undefined, never_expires: true }), now)),
      ).toMatchObject({ field: "never_expires" });
      expect(
        await refusal(
          createToken(db, support, body({ expires_in_days: undefined, expires_at: "2026-11-01T00:00:00Z" }), now),
        ),
      ).toMatchObject({ field: "expires_at" });
      expect(
        await refusal(
          createToken(db, support, body({ expires_in_days: undefined, expires_at: "2028-01-01T00:00:00Z" }), now),
        ),
      ).toMatchObject({ field: "expires_at" });
      expect(
        await refusal(createToken(db, support, body({ allowed_ips: ["10.0.0.0/8", "example.com"] }), now)),
      ).toMatchObject({ field: "allowed_ips.1" });
    });

    it("lets an admin make a never-expiring token for a service account, and no one else make one for another user", async () => {
      await setUp();
      const { token, owner } = await createToken(
        db,
        admin,
        body({ user_id: service.id, scopes: ["reports:read"], expires_in_days: undefined, never_expires: true }),
      );
      expect(owner.id).toBe(service.id);
      expect(token.expiresAt).toBeNull();
      expect(await refusal(createToken(db, support, body({ user_id: service.id })))).toMatchObject({
        field: "user_id",
      });
      expect(await refusal(createToken(db, admin, body({ user_id: support.id })))).toMatchObject({ field: "user_id" });
      expect((await listTokens(db, admin)).map((t) => t.owner.email)).toEqual(["bot@example.com"]);
      expect(await listTokens(db, support)).toEqual([]);
    });

    it("refuses a revoked or expired token, one whose owner is disabled, and one used from outside its ranges", async () => {
      await setUp();
      const now = new Date("2026-11-24T10:00:00Z");
      const a = await createToken(db, support, body(), now);
      await revokeToken(db, support, a.token.id, now);
      expect(await checkToken(db, a.secret, null, now)).toMatchObject({ ok: false, reason: "revoked" });

      const b = await createToken(db, support, body({ expires_in_days: 7 }), now);
      expect(await checkToken(db, b.secret, null, new Date("2026-12-02T10:00:00Z"))).toMatchObject({
        ok: false,
        reason: "expired",
      });

      const c = await createToken(db, support, body({ allowed_ips: ["203.0.113.0/24"] }), now);
      expect((await checkToken(db, c.secret, "203.0.113.9", now)).ok).toBe(true);
      expect(await checkToken(db, c.secret, "198.51.100.1", now)).toMatchObject({ ok: false, reason: "address" });
      expect(await checkToken(db, c.secret, null, now)).toMatchObject({ ok: false, reason: "address" });

      await updateUser(db, support.id, { disabled: true });
      expect(await checkToken(db, c.secret, "203.0.113.9", now)).toMatchObject({ ok: false, reason: "owner_disabled" });
      expect(await checkToken(db, "gth_notarealtoken", null, now)).toMatchObject({ ok: false, reason: "malformed" });
    });

    it("hides another user's token from revocation, except from an admin", async () => {
      await setUp();
      const { token: supports } = await createToken(db, support, body());
      const { token: admins } = await createToken(db, admin, body());
      expect(await refusal(revokeToken(db, support, admins.id))).toMatchObject({ code: "not_found" });
      expect((await revokeToken(db, admin, supports.id)).token.revokedAt).not.toBeNull();
    });

    it("writes the last use at most once a minute, and at once from a new address", async () => {
      await setUp();
      const start = new Date("2026-11-24T10:00:00Z");
      const { secret } = await createToken(db, support, body(), start);
      const use = async (at: Date, address: string) => {
        const check = await checkToken(db, secret, address, at);
        if (!check.ok) throw new Error(check.reason);
        return noteTokenUse(db, check.token, address, at);
      };
      const lastUsed = async () =>
        db.selectFrom("api_tokens").select(["last_used_at", "last_used_ip"]).executeTakeFirstOrThrow();

      expect(await use(start, "203.0.113.1")).toEqual({ newAddress: true });
      expect(await use(new Date(start.getTime() + 1_000), "203.0.113.1")).toEqual({ newAddress: false });
      expect(await lastUsed()).toEqual({ last_used_at: start.toISOString(), last_used_ip: "203.0.113.1" });

      const later = new Date(start.getTime() + LAST_USED_EVERY_MS);
      expect(await use(later, "203.0.113.1")).toEqual({ newAddress: false });
      expect((await lastUsed()).last_used_at).toBe(later.toISOString());

      const other = new Date(later.getTime() + 1_000);
      expect(await use(other, "198.51.100.2")).toEqual({ newAddress: true });
      expect(await lastUsed()).toEqual({ last_used_at: other.toISOString(), last_used_ip: "198.51.100.2" });
      // Back to an address it knows: not new (no audit row), though the last address is written.
      expect(await use(new Date(other.getTime() + 1_000), "203.0.113.1")).toEqual({ newAddress: false });
    });
  });
}
