// The audit log on every backend: what a row keeps, what it never keeps, filters and pagination.
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";

import { hashPurchaseCode, listAudit, purchaseCodeTarget, recordAudit, type AuditEntry } from "@/lib/auth/audit";
import { AuditListQuerySchema } from "@/lib/contract/audit";

import { useStore, type Backend } from "@/tests/support/store-backends";

const KEY = "k".repeat(32);
const CODE = "11111111-1111-4111-8111-11111111abcd";

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    userId: "u-alice",
    userEmail: "alice@example.com",
    action: "report.create",
    target: { type: "report", id: "42" },
    outcome: "success",
    requestId: "req-1",
    ...overrides,
  };
}

export function auditSuite(backend: Backend) {
  describe(`audit log (${backend.name})`, () => {
    const store = useStore(backend);

    it("keeps time, user, action, target, outcome, request id and detail", async () => {
      const { db } = store();
      await recordAudit(db, entry({ userEmail: "Alice@Example.com", detail: { fields: ["privacy"], status: 201 } }), {
        now: new Date("2025-03-01T10:00:00Z"),
      });
      const { rows, total } = await listAudit(db, {});
      expect(total).toBe(1);
      expect(rows[0]).toEqual({
        id: expect.any(Number),
        at: "2025-03-01T10:00:00.000Z",
        userId: "u-alice",
        userEmail: "alice@example.com",
        userName: null,
        action: "report.create",
        target: { type: "report", id: "42", label: null, name: null },
        outcome: "success",
        requestId: "req-1",
        detail: { fields: ["privacy"], status: 201 },
        count: 1,
        lastAt: null,
      });
    });

    it("collapses a denial repeated within 15 minutes into one row with a count; other rows are never collapsed", async () => {
      const { db } = store();
      const denied = entry({
        userId: null,
        action: "auth.login_failed",
        outcome: "denied",
        detail: { reason: "throttled", limited_by: "email" },
      });
      const T = Date.parse("2025-03-01T10:00:00Z");
      for (let i = 0; i < 300; i++)
        await recordAudit(db, { ...denied, requestId: `r${i}` }, { now: new Date(T + i * 1000) });
      // Another reason, another email, or a failure (not a denial) is a row of its own.
      await recordAudit(
        db,
        { ...denied, detail: { reason: "throttled", limited_by: "ip" } },
        { now: new Date(T + 301_000) },
      );
      await recordAudit(db, { ...denied, userEmail: "bob@example.com" }, { now: new Date(T + 302_000) });
      await recordAudit(db, { ...denied, outcome: "failure" }, { now: new Date(T + 303_000) });
      await recordAudit(db, { ...denied, outcome: "failure" }, { now: new Date(T + 304_000) });
      // 15 minutes after the last one, a new row starts.
      await recordAudit(db, denied, { now: new Date(T + 299_000 + 15 * 60_000 + 1) });
      const { rows, total } = await listAudit(db, {});
      expect(total).toBe(6);
      expect(rows.map((r) => [r.outcome, r.userEmail, r.detail?.limited_by, r.count])).toEqual([
        ["denied", "alice@example.com", "email", 1],
        ["failure", "alice@example.com", "email", 1],
        ["failure", "alice@example.com", "email", 1],
        ["denied", "bob@example.com", "email", 1],
        ["denied", "alice@example.com", "ip", 1],
        ["denied", "alice@example.com", "email", 300],
      ]);
      expect(rows.at(-1)).toMatchObject({
        at: new Date(T).toISOString(),
        lastAt: new Date(T + 299_000).toISOString(),
        requestId: "r0",
      });
    });

    it("names people and reports: the actor and a user target as they are named now, a report by its URL then", async () => {
      const { db } = store();
      await db
        .insertInto("users")
        .values(
          ["u-alice", "u-bob"].map((id) => ({
            id,
            email: `${id}@example.com`,
            name: id === "u-alice" ? "Alice Archer" : "Bob Baker",
            role: "admin" as const,
            password_hash: "x",
            disabled: 0,
            session_version: 1,
            created_at: "2025-01-01T00:00:00Z",
            updated_at: "2025-01-01T00:00:00Z",
          })),
        )
        .execute();
      await recordAudit(
        db,
        entry({ action: "user.update", target: { type: "user", id: "u-bob", label: "bob@old.example" } }),
      );
      await recordAudit(
        db,
        entry({ action: "report.create", target: { type: "report", id: "42", label: "https://shop.example/" } }),
      );
      const { rows } = await listAudit(db, {});
      expect(rows.map((r) => [r.userName, r.target])).toEqual([
        ["Alice Archer", { type: "report", id: "42", label: "https://shop.example/", name: null }],
        ["Alice Archer", { type: "user", id: "u-bob", label: "bob@old.example", name: "Bob Baker" }],
      ]);
    });

    it("keeps every kind of target, and none", async () => {
      const { db } = store();
      await recordAudit(db, entry({ action: "project.delete", target: { type: "project", name: "Shop front" } }));
      await recordAudit(db, entry({ action: "user.update", target: { type: "user", id: "u-bob" } }));
      await recordAudit(db, entry({ action: "auth.logout", target: null, requestId: null }));
      const { rows } = await listAudit(db, {});
      expect(rows.map((r) => [r.action, r.target])).toEqual([
        ["auth.logout", null],
        ["user.update", { type: "user", id: "u-bob", label: null, name: null }],
        ["project.delete", { type: "project", id: "Shop front", label: null, name: null }],
      ]);
    });

    it("stores a purchase code only as a keyed hash and its last 4 characters (none of a short code)", async () => {
      const { db } = store();
      await recordAudit(
        db,
        entry({ action: "purchase.validate", target: purchaseCodeTarget(`  ${CODE} `, KEY), outcome: "failure" }),
      );
      const [row] = (await listAudit(db, {})).rows;
      expect(row?.target).toEqual({ type: "purchase_code", id: hashPurchaseCode(CODE, KEY), label: null, name: null });
      expect(row?.detail).toEqual({ last4: "abcd" });
      await recordAudit(
        db,
        entry({ action: "purchase.validate", target: purchaseCodeTarget("AB12", KEY), outcome: "invalid" }),
      );
      const [short] = (await listAudit(db, {})).rows;
      expect(short?.detail).toBeNull();
      expect(JSON.stringify(await db.selectFrom("audit_log").selectAll().execute())).not.toContain("AB12");
      const raw = await db.selectFrom("audit_log").selectAll().execute();
      expect(JSON.stringify(raw)).not.toContain(CODE);
      expect(JSON.stringify(raw)).not.toContain(CODE.slice(0, 30));
    });

    it("hashes purchase codes with the key: same code and key, same hash; another key, another hash", () => {
      expect(hashPurchaseCode(CODE, KEY)).toMatch(/^[0-9a-f]{64}$/);
      expect(hashPurchaseCode(CODE, KEY)).toBe(hashPurchaseCode(CODE, KEY));
      expect(hashPurchaseCode(CODE, "j".repeat(32))).not.toBe(hashPurchaseCode(CODE, KEY));
      expect(purchaseCodeTarget("abc", KEY).last4).toBe("");
      expect(purchaseCodeTarget("abcd", KEY).last4).toBe("");
    });

    it("refuses an unknown action or outcome, a raw purchase code, and credentials in detail", async () => {
      const { db } = store();
      const refused = [
        entry({ action: "report.explode" as never }),
        entry({ outcome: "maybe" as never }),
        entry({ target: { type: "purchase_code", hash: CODE, last4: "abcd" } }),
        entry({ detail: { password: "hunter2hunter2" } }),
        entry({ detail: { newPassword: "x" } }),
        entry({ detail: { api_key: "x" } }),
        entry({ detail: { purchaseCode: CODE } }),
        entry({ detail: { nested: { password: "x" } } as never }),
      ];
      for (const bad of refused) await expect(recordAudit(db, bad)).rejects.toBeInstanceOf(ZodError);
      expect((await listAudit(db, {})).total).toBe(0);
      // A passkey is a kind of factor, not a credential; a password beside it still is one.
      await recordAudit(db, entry({ detail: { passkey: true, passkey_id: "p-1" } }));
      await expect(recordAudit(db, entry({ detail: { passkey_password: "x" } }))).rejects.toBeInstanceOf(ZodError);
      expect((await listAudit(db, {})).total).toBe(1);
    });

    describe("listing", () => {
      // 7 rows, one hour apart from 2025-03-01T00:00Z, two users and three actions.
      async function seed() {
        const { db } = store();
        const plan: Array<[string, AuditEntry["action"]]> = [
          ["alice", "auth.login"],
          ["alice", "report.create"],
          ["bob", "auth.login"],
          ["bob", "report.delete"],
          ["alice", "report.create"],
          ["bob", "report.create"],
          ["alice", "auth.logout"],
        ];
        for (const [i, [who, action]] of plan.entries()) {
          await recordAudit(
            db,
            entry({ userId: `u-${who}`, userEmail: `${who}@example.com`, action, requestId: `r${i}` }),
            {
              now: new Date(Date.UTC(2025, 2, 1, i)),
            },
          );
        }
        return db;
      }

      it("pages newest first, with the total of matching rows", async () => {
        const db = await seed();
        const pages = await Promise.all([1, 2, 3, 4].map((page) => listAudit(db, { page, perPage: 3 })));
        expect(pages.map((p) => p.rows.map((r) => r.requestId))).toEqual([
          ["r6", "r5", "r4"],
          ["r3", "r2", "r1"],
          ["r0"],
          [],
        ]);
        expect(pages.map((p) => p.total)).toEqual([7, 7, 7, 7]);
        expect((await listAudit(db, {})).rows).toHaveLength(7); // default perPage 25
      });

      it("orders rows with the same time by insertion", async () => {
        const { db } = store();
        const now = new Date("2025-03-01T00:00:00Z");
        for (const requestId of ["first", "second", "third"]) await recordAudit(db, entry({ requestId }), { now });
        expect((await listAudit(db, {})).rows.map((r) => r.requestId)).toEqual(["third", "second", "first"]);
      });

      it("filters by user (id or email in any case), action, and an inclusive time range", async () => {
        const db = await seed();
        const ids = async (q: Parameters<typeof listAudit>[1]) => {
          const { rows, total } = await listAudit(db, q);
          expect(total).toBe(rows.length);
          return rows.map((r) => r.requestId);
        };
        expect(await ids({ user: "u-bob" })).toEqual(["r5", "r3", "r2"]);
        expect(await ids({ user: "BOB@example.com" })).toEqual(["r5", "r3", "r2"]);
        expect(await ids({ action: "report.create" })).toEqual(["r5", "r4", "r1"]);
        expect(await ids({ user: "alice@example.com", action: "report.create" })).toEqual(["r4", "r1"]);
        expect(await ids({ from: new Date(Date.UTC(2025, 2, 1, 2)), to: new Date(Date.UTC(2025, 2, 1, 4)) })).toEqual([
          "r4",
          "r3",
          "r2",
        ]);
        expect(await ids({ user: "nobody" })).toEqual([]);
      });

      it("takes the contract's dates, with or without a time; a bare `to` date is the whole day", async () => {
        const db = await seed();
        const { rows, total } = await listAudit(db, {
          page: 2,
          perPage: 2,
          from: "2025-03-01T01:00:00Z",
          to: "2025-03-01",
        });
        expect(total).toBe(6);
        expect(rows.map((r) => r.requestId)).toEqual(["r4", "r3"]);
        expect((await listAudit(db, { from: "2025-03-02" })).total).toBe(0);
      });
    });

    it("is asked with a query the contract has validated once, at the API (lib/contract/audit.ts)", () => {
      const messages = (q: Record<string, unknown>) => {
        const result = AuditListQuerySchema.safeParse(q);
        return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`);
      };
      expect(messages({ per_page: "500" })).toEqual(["per_page must be one of: 10, 25, 50, 100"]);
      expect(messages({ page: "0" })).toEqual(["page must be a whole number from 1 to 999999"]);
      expect(messages({ action: "delete" })[0]).toMatch(/^action must be one of: report.create, /);
      expect(messages({ from: "yesterday" })).toEqual([
        "from must be a date or date-time, such as 2025-03-01 or 2025-03-01T12:00:00Z",
      ]);
      expect(messages({ from: "2025-03-02", to: "2025-03-01" })).toEqual(["from must not be after to"]);
      expect(messages({ sort: "asc" })).toHaveLength(1);
    });
  });
}
