// Every operation of the portal API (the operations table) and every guarded field, over real HTTP (next start ↔
// sandbox), against API tokens of an admin — who may do everything, so only the token's scopes can refuse: a token
// lacking each scope in turn is refused (403 insufficient_scope) exactly the operations that need it, and every
// field that needs it is absent from its answers; operations no token may use refuse every token.
import { describe, expect, it } from "vitest";

import { operations, type OperationSpec } from "@/lib/api/operations";
import { TOKEN_SCOPES, type Permission } from "@/lib/contract/values";

import type { GatewayResponse } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const { gateway, client: admin } = setUpGateway({
  signIn: "admin",
  // Each token walks the whole table: its own per-minute limit must not be what answers.
  env: { TOKEN_RATE_LIMIT_PER_MINUTE: "10000", PURCHASE_RATE_LIMIT_PER_USER: "1000" },
});

const OPERATIONS = Object.values(operations) as OperationSpec[];
const isScope = (permission: string): boolean => (TOKEN_SCOPES as readonly string[]).includes(permission);
const json = (body: unknown, method = "POST"): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** Runs `check` with a new token of the admin's with these scopes, then revokes it (so the test holds one at a time). */
async function withToken(scopes: readonly string[], check: (secret: string) => Promise<void>): Promise<void> {
  const res = await admin.request("/api/tokens", json({ name: `${scopes.length} scopes`, scopes, expires_in_days: 7 }));
  expect(res.status, res.text).toBe(201);
  try {
    await check(res.json.data.secret);
  } finally {
    await admin.request(`/api/tokens/${res.json.data.id}`, { method: "DELETE" });
  }
}

/** The operation's path with values for its parameters: ids that do not exist, so a request that passes changes nothing. */
function pathOf(op: OperationSpec): string {
  const id =
    op.path.includes("/bulk/") || op.path.includes("/admin/") || op.path.includes("/tokens/")
      ? "00000000-0000-4000-8000-000000000000"
      : "999999";
  return op.path
    .replace("{id}", id)
    .replace("{project}", "no-such-project")
    .replace("{area}", "reports")
    .replace("{delivery}", "00000000-0000-4000-8000-000000000000");
}

function send(op: OperationSpec, secret: string | null): Promise<GatewayResponse> {
  const init: RequestInit = op.body ? json({}, op.method) : { method: op.method, redirect: "manual" };
  return gateway.request(pathOf(op), {
    ...init,
    headers: { ...(init.headers as Record<string, string>), ...(secret ? { Authorization: `Bearer ${secret}` } : {}) },
  });
}

const label = (op: OperationSpec) => `${op.method} ${op.path} (${op.permission})`;

/** 403 insufficient_scope naming the missing scope; for a session-only operation (scope null), saying so. */
function expectScopeRefused(res: GatewayResponse, op: OperationSpec, scope: string | null): void {
  expect(res.status, `${label(op)}: ${res.text}`).toBe(403);
  expect(res.json.error.code, label(op)).toBe("insufficient_scope");
  if (scope === null) expect(res.json.error.message, label(op)).toContain("signed-in session");
  else expect(res.json.error.fields, label(op)).toEqual({ scope });
}

function expectPassedPermission(res: GatewayResponse, op: OperationSpec): void {
  expect([401, 403], `${label(op)}: ${res.status} ${res.text}`).not.toContain(res.status);
}

/** What a token lacking `missing` (or none, for null) must get from each operation of the table. */
async function walkEveryOperation(secret: string, missing: Permission | null): Promise<void> {
  for (const op of OPERATIONS) {
    const res = await send(op, secret);
    if (op.permission === "public") {
      // A public operation ignores a token: the same answer as without one.
      expect(res.status, label(op)).toBe((await send(op, null)).status);
    } else if (op.sessionOnly) {
      expectScopeRefused(res, op, null);
    } else if (op.permission === "signed_in") {
      expectPassedPermission(res, op);
    } else if (!isScope(op.permission) || op.permission === missing) {
      expectScopeRefused(res, op, op.permission);
    } else {
      expectPassedPermission(res, op);
    }
  }
}

describe("every operation against a token", () => {
  it("with every scope: each scoped operation passes; session-only and admin-only ones are refused", async () => {
    await withToken(TOKEN_SCOPES, (secret) => walkEveryOperation(secret, null));
  });

  it.each(TOKEN_SCOPES)(
    "lacking %s: exactly the operations that need it are refused, the others pass",
    async (missing) => {
      await withToken(
        TOKEN_SCOPES.filter((scope) => scope !== missing),
        async (secret) => {
          await walkEveryOperation(secret, missing);
          // The token's own account of itself agrees.
          const me = await gateway.request("/api/auth/me", { headers: { Authorization: `Bearer ${secret}` } });
          expect(me.json.data.permissions).not.toContain(missing);
        },
      );
    },
  );
});

/** Every field an answer shows only with a further permission, from the operations table. */
const GUARDED = OPERATIONS.flatMap((op) =>
  Object.entries(op.guardedFields ?? {}).map(([field, permission]) => ({ op, field, permission })),
);

describe("every guarded field", () => {
  it("is declared (the seller's balance and currency need finances:read)", () => {
    expect(GUARDED.map(({ op, field, permission }) => `${op.id}.${field}: ${permission}`)).toEqual([
      "showAccount.balance: finances:read",
      "showAccount.currency: finances:read",
    ]);
  });

  it("is absent for a token with only items:read (the issue's case)", async () => {
    await withToken(["items:read"], async (secret) => {
      const res = await send(operations.showAccount, secret);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.username).toEqual(expect.any(String));
      expect(res.json.data).not.toHaveProperty("balance");
      expect(res.json.data).not.toHaveProperty("currency");
    });
  });

  it.each(GUARDED.map(({ op, field, permission }) => [`${op.id}.${field}`, op, field, permission] as const))(
    "%s: present with every scope, absent for a token lacking its permission",
    async (_, op, field, permission) => {
      expect(op.method).toBe("GET"); // read, so asking twice changes nothing
      await withToken(TOKEN_SCOPES, async (secret) => {
        const all = await send(op, secret);
        expect(all.status, all.text).toBe(200);
        expect(all.json.data).toHaveProperty(field);
      });
      await withToken(
        TOKEN_SCOPES.filter((scope) => scope !== permission),
        async (secret) => {
          const lacking = await send(op, secret);
          expect(lacking.status, lacking.text).toBe(200);
          expect(lacking.json.data).not.toHaveProperty(field);
        },
      );
      // The admin's session (no scopes) sees it.
      expect((await admin.request(pathOf(op))).json.data).toHaveProperty(field);
    },
  );
});
