// Accounts as an operator deploys them, over real HTTP: served over https (PUBLIC_ORIGIN) — Secure __Host-
// cookie, HSTS, the origin rule — with no trusted proxy (client-written X-Forwarded-For changes nothing); the
// README's first steps with the users CLI against the running portal's store; and configurations that must
// stop the start.
import { spawn } from "node:child_process";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { CANARY } from "@/tests/support/canary";
import { freePort, ROOT } from "@/tests/support/processes";
import { startGatewayExpectingFailure, type SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const ORIGIN = "https://portal.example.test";

const { gateway, client: admin } = setUpGateway({
  signIn: "admin",
  env: { PUBLIC_ORIGIN: ORIGIN, PURCHASE_RATE_LIMIT_PER_IP: "3" },
});

const jsonInit = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

describe("served over https (PUBLIC_ORIGIN)", () => {
  it("seals the session in a Secure, __Host- cookie", async () => {
    const res = await gateway.request(
      "/api/auth/login",
      jsonInit("POST", { email: "admin@gatehouse.test", password: "admin password for tests" }, { "X-CSRF": "1" }),
    );
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-gatehouse_session="));
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/; Domain=/i);
    expect(admin.cookie()).toMatch(/^__Host-gatehouse_session=/);
    expect((await admin.request("/api/auth/me")).status).toBe(200);
  });

  it("sends HSTS on every answer, and pages upgrade insecure requests", async () => {
    for (const path of ["/api/health", "/api/reports", "/login", "/reports"]) {
      const res = await gateway.request(path);
      expect(res.headers.get("strict-transport-security"), path).toMatch(/^max-age=\d{7,}; includeSubDomains$/);
    }
    expect((await gateway.request("/login")).headers.get("content-security-policy")).toContain(
      "upgrade-insecure-requests",
    );
  });

  it("accepts changes from the public origin only", async () => {
    const own = await admin.request(
      "/api/reports",
      jsonInit("POST", { url: "https://https-origin.example/" }, { Origin: ORIGIN }),
    );
    expect(own.status, own.text).toBe(201);
    // The address the test connects to is not the portal's public origin.
    const direct = await admin.request(
      "/api/reports",
      jsonInit("POST", { url: "https://https-origin.example/" }, { Origin: gateway.url }),
    );
    expect(direct.status).toBe(403);
    expect(direct.json.error.code).toBe("csrf");
  });
});

describe("without a trusted proxy", () => {
  it("ignores X-Forwarded-For: every caller shares one per-address purchase-check bucket", async () => {
    const editor = await gateway.signIn("editor");
    const validate = (client: SignedInClient, forwardedFor: string) =>
      client.request(
        "/api/purchases/validate",
        jsonInit(
          "POST",
          { purchase_code: FIXED_PURCHASE_CODES.none },
          { "X-Forwarded-For": forwardedFor, Origin: ORIGIN },
        ),
      );
    const statuses = [
      (await validate(admin, "203.0.113.1")).status,
      (await validate(editor, "203.0.113.2")).status,
      (await validate(admin, "203.0.113.3")).status,
    ];
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await validate(editor, "203.0.113.4");
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toContain("3 purchase checks a minute per address");
  });
});

function usersCli(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(ROOT, "node_modules", ".bin", "tsx"),
      ["--conditions=react-server", "lib/cli/users.ts", ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: gateway.databaseUrl },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe("the README's first steps, with the users CLI beside the running portal", () => {
  it("creates an admin, who signs in, adds a viewer, and the viewer is refused what he may not do", async () => {
    const password = "operator chose this one";
    const created = await usersCli(
      ["create", "--email", "ops@example.com", "--name", "Ops", "--role", "admin"],
      `${password}\n`,
    );
    expect(created, created.stderr).toMatchObject({ code: 0 });

    const ops = await gateway.signIn({ email: "ops@example.com", password });
    expect(ops.user.role).toBe("admin");
    const viewerPassword = "viewer password 123";
    const added = await ops.request(
      "/api/admin/users",
      jsonInit(
        "POST",
        { email: "vera@example.com", name: "Vera", role: "viewer", password: viewerPassword },
        { Origin: ORIGIN },
      ),
    );
    expect(added.status).toBe(201);

    const vera = await gateway.signIn({ email: "vera@example.com", password: viewerPassword });
    expect((await vera.request("/api/reports")).status).toBe(200);
    for (const [path, init] of [
      ["/api/reports/1", { method: "DELETE" }],
      ["/api/purchases/validate", jsonInit("POST", { purchase_code: FIXED_PURCHASE_CODES.active })],
      ["/api/admin/users", {}],
    ] as const) {
      const res = await vera.request(path, init);
      expect(res.status, path).toBe(403);
      expect(res.json.error.code).toBe("forbidden");
    }

    // The CLI ends sessions too: disabling her there signs her out here.
    const disabled = await usersCli(["disable", "vera@example.com"], "");
    expect(disabled.code).toBe(0);
    expect((await vera.request("/api/reports")).status).toBe(401);
  });
});

describe("configurations that stop the start", () => {
  it("exits 1 naming each bad accounts variable, never quoting a secret", async () => {
    const unused = await freePort();
    const { code, output } = await startGatewayExpectingFailure({
      REPORTS_API_BASE_URL: `http://127.0.0.1:${unused}/seo`,
      REPORTS_API_KEY: CANARY.reports,
      SESSION_SECRET: "too-short-secret",
      TRUST_PROXY: "maybe",
      PUBLIC_ORIGIN: "portal.example.com",
      PURCHASE_RATE_LIMIT_PER_USER: "0",
    });
    const text = output.join("\n");
    expect(code).toBe(1);
    expect(text).toContain("SESSION_SECRET: the secret has 16 characters; each secret needs at least 32");
    expect(text).toContain('TRUST_PROXY: "maybe" must be 0 (no proxy)');
    expect(text).toContain('PUBLIC_ORIGIN: "portal.example.com" must be the portal\'s origin');
    expect(text).toContain('PURCHASE_RATE_LIMIT_PER_USER: "0" must be at least 1');
    expect(text).not.toContain("too-short-secret");
    expect(text).not.toMatch(/\n\s+at /);
  });

  it("requires SESSION_SECRET outside demo mode", async () => {
    const unused = await freePort();
    const { code, output } = await startGatewayExpectingFailure({
      ITEMS_API_BASE_URL: `http://127.0.0.1:${unused}/market`,
      ITEMS_API_KEY: CANARY.items,
      SESSION_SECRET: undefined,
    });
    expect(code).toBe(1);
    expect(output.join("\n")).toContain("SESSION_SECRET: required outside demo mode");
  });
});

describe("key custody", () => {
  it("no canary key appeared in any response or log line of this file", () => {
    expect(() => gateway.assertNoKeyLeaked()).not.toThrow();
  });
});
