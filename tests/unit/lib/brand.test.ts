// Errors and store handles are told apart by brand, not class identity: the built server can hold several copies
// of one module (one per bundle), and an object made by one copy must be recognised by another. A second copy is
// loaded here with a query string, which gives it a module instance of its own.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ApiError, isApiError } from "@/lib/api/errors";
import { AccountError, isAccountError } from "@/lib/auth/users";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb } from "@/lib/db";
import { CircuitOpenError, isCircuitOpenError, isUpstreamError, UpstreamError } from "@/lib/upstream/errors";
import { ROOT } from "@/tests/support/processes";

type UpstreamErrors = typeof import("@/lib/upstream/errors");
type ApiErrors = typeof import("@/lib/api/errors");
type Users = typeof import("@/lib/auth/users");
type Store = typeof import("@/lib/db");

/** A second instance of a module of ours (the query string makes it a module of its own). */
async function secondCopy<T>(file: string): Promise<T> {
  return (await import(/* @vite-ignore */ `${path.resolve(ROOT, file)}?copy`)) as T;
}

describe("errors made by another copy of their module", () => {
  it("are not instances of this copy's classes, but carry the same brand", async () => {
    const copy = await secondCopy<UpstreamErrors>("lib/upstream/errors.ts");
    expect(copy.UpstreamError).not.toBe(UpstreamError);

    const open = new copy.CircuitOpenError({ area: "reports", operation: "reports.list", retryAfterSeconds: 3 });
    expect(open instanceof CircuitOpenError).toBe(false);
    expect(isCircuitOpenError(open)).toBe(true);
    expect(isUpstreamError(open)).toBe(true);
    const timeout = new copy.UpstreamError({ kind: "timeout", area: "items", operation: "items.list", detail: "slow" });
    expect(isUpstreamError(timeout)).toBe(true);
    expect(isCircuitOpenError(timeout)).toBe(false);

    const api = new (await secondCopy<ApiErrors>("lib/api/errors.ts")).ApiError("not_found", "No.");
    expect(api instanceof ApiError).toBe(false);
    expect(isApiError(api)).toBe(true);

    const account = new (await secondCopy<Users>("lib/auth/users.ts")).AccountError("last_admin", "no");
    expect(account instanceof AccountError).toBe(false);
    expect(isAccountError(account)).toBe(true);
    expect(isAccountError(account, "last_admin")).toBe(true);
    expect(isAccountError(account, "email_taken")).toBe(false);
  });

  it("plain errors and look-alikes carry no brand", () => {
    for (const value of [new Error("x"), { name: "UpstreamError", kind: "timeout" }, null, "UpstreamError", 42]) {
      expect(isUpstreamError(value)).toBe(false);
      expect(isApiError(value)).toBe(false);
      expect(isAccountError(value)).toBe(false);
    }
  });
});

describe("a store handle opened by another copy of lib/db", () => {
  it("tells its dialect from the store's settings, on the handle, a transaction and a connection alike", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "gatehouse-brand-"));
    const store = await openDb(parseDatabaseUrl(path.join(dir, "x.db")));
    try {
      const copy = await secondCopy<Store>("lib/db/index.ts");
      expect(copy.dialectOf(store.db)).toBe("sqlite");
      expect(copy.isPostgres(store.db)).toBe(false);
      await store.db.transaction().execute(async (trx) => expect(copy.dialectOf(trx)).toBe("sqlite"));
      await store.db.connection().execute(async (connection) => expect(copy.dialectOf(connection)).toBe("sqlite"));
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
