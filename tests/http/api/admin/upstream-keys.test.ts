// Upstream keys kept in the portal, over real HTTP against the production build and the sandbox: a key set
// through the admin API is sealed (the database files hold it in no form), a wrong key is refused before it is
// saved with the upstream's words, a rotation under a load of reads loses no request and every request that
// starts after the switch carries the new key (the sandbox records each request's key), a key the upstream
// rejects shows the admins' banner and writes `upstream.key_rejected`, a rotation is undone, and after
// `npm run keys -- rotate-kek` the portal restarts with only the new KEK (and refuses to start without one).
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { main as keysCli } from "@/lib/cli/keys";
import { CANARY, keyEncodings } from "@/tests/support/canary";
import { sandboxEnv, startGatewayExpectingFailure, type SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const FIRST = CANARY.portalReports;
const NEXT = CANARY.portalReportsNext;
const OLD_KEK = randomBytes(32).toString("base64");
const NEW_KEK = randomBytes(32).toString("base64");
/** A short key (8 characters): named by a keyed fingerprint only, never by its last 4. */
const SHORT = "k3Y9zQ2a";

let storeDir: string;
// Registered first, so run last: once the portal has stopped.
afterAll(async () => {
  if (storeDir) await rm(storeDir, { recursive: true, force: true });
});
const {
  sandbox,
  gateway,
  client: admin,
  restart,
} = setUpGateway({
  sandbox: { extraKeys: { reports: [FIRST, NEXT], items: { [CANARY.portalItems]: "main", [SHORT]: "main" } } },
  // A store in a folder of its own: the test reads its files, and the KEK rotation runs on it between starts.
  env: async () => {
    storeDir = await mkdtemp(path.join(tmpdir(), "gatehouse-keys-"));
    return portalEnvExtra();
  },
  signIn: "admin",
  startTimeoutMs: 120_000,
});

const post = (body?: unknown): RequestInit => ({
  method: "POST",
  headers: body === undefined ? {} : { "Content-Type": "application/json" },
  body: body === undefined ? undefined : JSON.stringify(body),
});

/** The areas' keys are left to the portal: base URLs in the environment, no key variables, a KEK. */
const portalEnvExtra = (extra: Record<string, string | undefined> = {}) => ({
  REPORTS_API_KEY: undefined,
  ITEMS_API_KEY: undefined,
  GATEHOUSE_KEK: OLD_KEK,
  DATABASE_URL: path.join(storeDir, "gatehouse.db"),
  ...extra,
});
const portalEnv = (extra: Record<string, string | undefined> = {}) => sandboxEnv(sandbox, portalEnvExtra(extra));

async function until<T>(what: string, check: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function reportsArea(client: SignedInClient) {
  const res = await client.request("/api/admin/upstream-keys");
  expect(res.status).toBe(200);
  return (res.json.data as Array<{ area: string; [k: string]: any }>).find((a) => a.area === "reports")!; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function auditRows(client: SignedInClient, action: string) {
  const res = await client.request(`/api/admin/audit?action=${action}`);
  expect(res.status).toBe(200);
  return res.json.data as Array<{
    action: string;
    outcome: string;
    detail: Record<string, unknown> | null;
    user_id: string | null;
  }>;
}

describe("an area whose key is kept in the portal", () => {
  it("answers 503 until a key is set, naming the page that sets it", async () => {
    const res = await admin.request("/api/reports");
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("area_not_configured");
    expect(res.json.error.message).toMatch(/has no key yet.*Upstream connections/);
    const area = await reportsArea(admin);
    expect(area).toMatchObject({ source: "none", key: null, portal_keys: true, stored: [] });
  });

  it("refuses a wrong key before saving it, with the upstream's words", async () => {
    const res = await admin.request(
      "/api/admin/upstream-keys/reports",
      post({ key: "a-key-the-upstream-never-issued" }),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.fields.key).toBe(
      "The reports API (area A) refused this key: “Unauthenticated.” (HTTP 401). Nothing was saved.",
    );
    expect((await reportsArea(admin)).stored).toEqual([]);
    const [row] = await auditRows(admin, "upstream.key_set");
    expect(row).toMatchObject({ outcome: "failure" });
  });

  it("tests a key without saving it", async () => {
    const res = await admin.request("/api/admin/upstream-keys/reports/test", post({ key: FIRST }));
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ accepted: true, last4: FIRST.slice(-4) });
    expect((await reportsArea(admin)).stored).toEqual([]);
  });

  it("names a short key by a keyed fingerprint only: no last 4, and no plain hash of the key matches", async () => {
    const res = await admin.request("/api/admin/upstream-keys/items/test", post({ key: SHORT }));
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ accepted: true, last4: null });
    expect(res.json.data.fingerprint).toMatch(/^[0-9a-f]{8}$/);
    expect(res.json.data.fingerprint).not.toBe(createHash("sha256").update(SHORT).digest("hex").slice(0, 8));
    expect(res.text).not.toContain(SHORT.slice(-4));
  });

  it("registers no refused test key for redaction, and never quotes or logs it", async () => {
    const before = await admin.request("/api/auth/me");
    expect(JSON.stringify(before.json)).toContain("reports:read");
    const refused = await admin.request("/api/admin/upstream-keys/reports/test", post({ key: "reports:read" }));
    expect(refused.status).toBe(400);
    // Registered, the string would now be cut out of every answer: the admin's own permissions included.
    expect((await admin.request("/api/auth/me")).json).toEqual(before.json);
    // An upstream that quotes the refused key, in a refusal and in an error: neither the answer nor the log has it.
    const candidate = `never-issued-${randomBytes(8).toString("hex")}`;
    const quoting = { message: `No such key: ${candidate}` };
    await sandbox.injectFault({
      method: "GET",
      path: "/seo/api/v1/projects",
      kind: "status",
      status: 401,
      body: quoting,
      times: 1,
    });
    const quoted = await admin.request("/api/admin/upstream-keys/reports/test", post({ key: candidate }));
    expect(quoted.status).toBe(400);
    expect(quoted.json.error.fields.key).toContain("No such key: [REDACTED]");
    await sandbox.injectFault({
      method: "GET",
      path: "/seo/api/v1/projects",
      kind: "status",
      status: 422,
      body: { ...quoting, errors: { key: [`${candidate} is unknown`] } },
      times: 1,
    });
    const invalid = await admin.request("/api/admin/upstream-keys/reports/test", post({ key: candidate }));
    expect(invalid.status).toBe(400);
    await gateway.logLineFor(invalid.headers.get("x-request-id")!);
    expect(quoted.text + invalid.text).not.toContain(candidate);
    expect(gateway.output().join("\n")).not.toContain(candidate);
    expect((await admin.request("/api/auth/me")).text).not.toContain("[REDACTED]");
  });

  it("refuses a viewer, and an input that is not a key, without asking the upstream", async () => {
    const viewer = await gateway.signIn("viewer");
    expect((await viewer.request("/api/admin/upstream-keys")).status).toBe(403);
    expect((await viewer.request("/api/admin/upstream-keys/reports", post({ key: FIRST }))).status).toBe(403);
    const spaced = await admin.request("/api/admin/upstream-keys/reports", post({ key: "has a space in it" }));
    expect(spaced.status).toBe(400);
    expect(spaced.json.error.fields.key).toMatch(/printable ASCII without spaces/);
    expect((await admin.request("/api/admin/upstream-keys/elsewhere", post({ key: FIRST }))).status).toBe(400);
  });

  it("saves a working key, uses it at once, and audits who set it with the fingerprints", async () => {
    await sandbox.clearRequests();
    const res = await admin.request("/api/admin/upstream-keys/reports", post({ key: FIRST }));
    expect(res.status).toBe(201);
    expect(res.json.data.change).toMatchObject({ area: "reports", old_fingerprint: null });
    expect(res.json.data.status).toMatchObject({
      source: "portal",
      key: { last4: FIRST.slice(-4), set_by: "admin@gatehouse.test" },
    });
    expect((await admin.request("/api/reports")).status).toBe(200);
    const requests = await sandbox.requests();
    expect(requests.filter((r) => r.path === "/seo/api/v1/reports").map((r) => r.key)).toEqual([FIRST]);
    const [row] = await auditRows(admin, "upstream.key_set");
    expect(row).toMatchObject({
      outcome: "success",
      detail: { area: "reports", old_fingerprint: null, new_fingerprint: res.json.data.change.new_fingerprint },
    });
    gateway.assertNoKeyLeaked();
  });

  it("leaves no key bytes in the database files: not as is, not in base64, not in hex", async () => {
    const files = (await readdir(storeDir)).filter((name) => name.startsWith("gatehouse.db"));
    expect(files).toContain("gatehouse.db");
    for (const file of files) {
      const bytes = await readFile(path.join(storeDir, file));
      const latin1 = bytes.toString("latin1");
      const { anyCase, exact } = keyEncodings(FIRST);
      for (const needle of anyCase)
        expect(latin1.toLowerCase().includes(needle.toLowerCase()), `${file} holds the key as ${needle}`).toBe(false);
      for (const needle of exact)
        expect(latin1.includes(needle), `${file} holds the key in base64 (${needle})`).toBe(false);
      expect(bytes.includes(Buffer.from(FIRST, "utf16le")), `${file} holds the key in UTF-16`).toBe(false);
    }
  });

  it("rotates under a load of reads: no request lost, every request started after the switch carries the new key", async () => {
    await sandbox.clearRequests();
    let switched = false;
    let stop = false;
    const started: Array<{ tag: string; afterSwitch: boolean; status?: number }> = [];
    let counter = 0;
    const worker = async () => {
      while (!stop) {
        const tag = `load${counter++}`;
        const entry: { tag: string; afterSwitch: boolean; status?: number } = { tag, afterSwitch: switched };
        started.push(entry);
        entry.status = (await admin.request(`/api/reports?search=${tag}`)).status;
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await until("some reads before the switch", async () => started.filter((s) => s.status !== undefined).length >= 20);
    const rotated = await admin.request("/api/admin/upstream-keys/reports", post({ key: NEXT }));
    expect(rotated.status).toBe(201);
    switched = true;
    const afterCount = started.length;
    await until(
      "some reads after the switch",
      async () => started.slice(afterCount).filter((s) => s.status !== undefined).length >= 20,
    );
    stop = true;
    await Promise.all(workers);

    expect(started.filter((s) => s.status !== 200)).toEqual([]);
    console.info(
      `rotation under load: ${started.length} reads by 4 clients, ${started.filter((s) => s.afterSwitch).length} started after the switch, none lost`,
    );
    const keyOf = new Map(
      (await sandbox.requests())
        .filter((r) => r.path === "/seo/api/v1/reports")
        .map((r) => [r.query.search as string, r.key]),
    );
    for (const request of started) {
      const key = keyOf.get(request.tag);
      if (request.afterSwitch) expect(key, `${request.tag} started after the switch`).toBe(NEXT);
      else expect([FIRST, NEXT]).toContain(key);
    }
    expect(started.filter((s) => !s.afterSwitch).map((s) => keyOf.get(s.tag))).toContain(FIRST);
    const area = await reportsArea(admin);
    expect(area.stored.map((k: { last4: string; active: boolean }) => [k.last4, k.active])).toEqual([
      [NEXT.slice(-4), true],
      [FIRST.slice(-4), false],
    ]);
  }, 120_000);

  it("shows admins a banner and writes upstream.key_rejected when the upstream rejects the key; a viewer sees no banner", async () => {
    await sandbox.setKey("reports", NEXT, false);
    const res = await admin.request("/api/reports");
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe("upstream_auth");
    const row = await until(
      "the key_rejected audit row",
      async () => (await auditRows(admin, "upstream.key_rejected"))[0],
    );
    expect(row).toMatchObject({ outcome: "failure", user_id: null, detail: { area: "reports", source: "portal" } });
    const page = await until("the banner", async () => {
      const html = (await admin.request("/")).text.replace(/<!-- -->/g, "");
      return html.includes("key-rejected-banner") ? html : null;
    });
    expect(
      /The reports API rejected its key \([0-9a-f]{8}\) at <time[^>]*>[^<]+<\/time>; <a href="\/admin\/upstream">rotate it here<\/a>/.test(
        page,
      ),
      "the banner's sentence",
    ).toBe(true);
    const area = await reportsArea(admin);
    expect(area.rejected).toMatchObject({ fingerprint: row.detail!.old_fingerprint });
    // The health numbers count this instance's exchanges: the reads above, and this rejection as an error.
    expect(area.health.hour.requests).toBeGreaterThan(40);
    expect(area.health.hour.errors).toBeGreaterThanOrEqual(1);
    expect(area.health.hour.p95_ms).toBeGreaterThan(0);
    expect(area.health.last_success_at).not.toBeNull();
    expect(area.health.breaker).toEqual({ state: "closed", retry_in_ms: 0 });
    expect(area.health.hour_series).toHaveLength(12);
    expect(area.health.day_series).toHaveLength(24);
    const viewer = await gateway.signIn("viewer");
    expect((await viewer.request("/")).text).not.toContain("key-rejected-banner");
  });

  it("undoes the rotation: the earlier key comes back, tested first, and the banner goes", async () => {
    const area = await reportsArea(admin);
    const earlier = area.stored.find((k: { active: boolean }) => !k.active);
    const res = await admin.request(`/api/admin/upstream-keys/reports/${earlier.id}/restore`, post());
    expect(res.status).toBe(200);
    expect(res.json.data.status).toMatchObject({ key: { last4: FIRST.slice(-4) }, rejected: null });
    expect((await admin.request("/api/reports")).status).toBe(200);
    expect((await admin.request("/")).text).not.toContain("key-rejected-banner");
    const [row] = await auditRows(admin, "upstream.key_restored");
    expect(row).toMatchObject({
      outcome: "success",
      detail: { old_fingerprint: res.json.data.change.old_fingerprint, new_fingerprint: earlier.fingerprint },
    });
    // The key in use cannot be removed; the disabled one can.
    const active = res.json.data.status.stored.find((k: { active: boolean }) => k.active);
    expect((await admin.request(`/api/admin/upstream-keys/reports/${active.id}`, { method: "DELETE" })).status).toBe(
      409,
    );
    const disabled = res.json.data.status.stored.find((k: { active: boolean }) => !k.active);
    const removed = await admin.request(`/api/admin/upstream-keys/reports/${disabled.id}`, { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect(removed.json.data.status.stored).toHaveLength(1);
    expect((await auditRows(admin, "upstream.key_removed"))[0]).toMatchObject({ outcome: "success" });
    gateway.assertNoKeyLeaked();
  });
});

describe("the key-encryption key", () => {
  it("is rotated by npm run keys -- rotate-kek; the portal then starts with only the new KEK, and refuses without one or with the old", async () => {
    // Stopped, the store's keys are sealed again under the new KEK; starts with other KEKs are refused.
    await restart({ GATEHOUSE_KEK: NEW_KEK }, async () => {
      const databaseUrl = path.join(storeDir, "gatehouse.db");
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
      const code = await keysCli(["rotate-kek"], io, {
        DATABASE_URL: databaseUrl,
        GATEHOUSE_KEK: NEW_KEK,
        GATEHOUSE_KEK_PREVIOUS: OLD_KEK,
      });
      expect({ code, err }).toEqual({ code: 0, err: [] });
      expect(out.join("\n")).toMatch(/^Re-sealed 1 upstream key under the new GATEHOUSE_KEK/);

      // Keys in the environment, none to seal with: the stored key could not be read, so the start stops.
      const withoutKek = await startGatewayExpectingFailure(
        portalEnv({ GATEHOUSE_KEK: undefined, REPORTS_API_KEY: NEXT, ITEMS_API_KEY: CANARY.portalItems }),
      );
      expect(withoutKek.code).toBe(1);
      expect(withoutKek.output.join("\n")).toContain(
        "GATEHOUSE_KEK: is missing, and the store holds 1 upstream key sealed under it",
      );
      expect(withoutKek.output.join("\n")).not.toMatch(/\n\s+at /);

      const withOld = await startGatewayExpectingFailure(portalEnv({ GATEHOUSE_KEK: OLD_KEK }));
      expect(withOld.code).toBe(1);
      expect(withOld.output.join("\n")).toMatch(
        /GATEHOUSE_KEK: does not open the stored key [0-9a-f]{8} of area reports/,
      );

      // No key in the environment either: the one line is the missing KEK, not the areas' key variables.
      const noKeyAnywhere = await startGatewayExpectingFailure(portalEnv({ GATEHOUSE_KEK: undefined }));
      expect(noKeyAnywhere.output.join("\n")).toContain(
        "GATEHOUSE_KEK: is missing, and the store holds 1 upstream key sealed under it",
      );
      expect(noKeyAnywhere.output.join("\n")).not.toContain("_API_KEY: is missing");

      const weak = await startGatewayExpectingFailure(
        portalEnv({ GATEHOUSE_KEK: Buffer.alloc(32, 7).toString("base64") }),
      );
      expect(weak.output.join("\n")).toContain("GATEHOUSE_KEK: is not random enough to seal keys");
    });
    await sandbox.clearRequests();
    expect((await admin.request("/api/reports")).status).toBe(200);
    expect((await sandbox.requests()).map((r) => r.key)).toEqual([FIRST]);
  }, 180_000);

  it("lets an environment key win over the stored one, and the page API says so", async () => {
    await restart({ REPORTS_API_KEY: NEXT });
    await sandbox.setKey("reports", NEXT, true);
    await sandbox.clearRequests();
    expect((await admin.request("/api/reports")).status).toBe(200);
    expect((await sandbox.requests()).map((r) => r.key)).toEqual([NEXT]);
    const area = await reportsArea(admin);
    expect(area).toMatchObject({ source: "environment", portal_keys: false, key: { last4: NEXT.slice(-4) } });
    const refused = await admin.request("/api/admin/upstream-keys/reports", post({ key: FIRST }));
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe("key_set_in_environment");
    const page = await admin.request("/admin/upstream");
    expect(page.text).toContain("it decides: a key set here would not be used");
  }, 120_000);
});
