// The start-up check on the real processes an operator runs, read from their real stdout and stderr: `npm start`
// (which checks before Next exists) and `next start` run directly (instrumentation.ts checks before it answers).
// Every problem is one plain line, all at once, exit 1: no stack trace, no JSON, no secret.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { NO_UPSTREAM } from "@/lib/config/env";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb } from "@/lib/db";
import { saveActiveKey } from "@/lib/upstream/keys/store";

import { CANARY } from "@/tests/support/canary";
import { freePort } from "@/tests/support/processes";
import { sandboxEnv, startGateway } from "@/tests/support/gateway";
import { assertBuilt, nextStart, npmStart, rawRequest, type Spawned } from "@/tests/support/processes";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

const SECRET = "Q8x2kLr0v9ZpA1nB7cD3eF5gH6jK4mN0pQ2rS8tU1vW=";
const EVERY_GOOD_AREA = { REPORTS_API_BASE_URL: "https://reports.example.com/seo", REPORTS_API_KEY: CANARY.reports };
const HEADING =
  /^Gatehouse cannot start: (1 setting needs|\d+ settings need) fixing \(in the environment or \.env\.local\):$/;

let cwd: string;
beforeAll(async () => {
  assertBuilt();
  cwd = await mkdtemp(path.join(tmpdir(), "gatehouse-start-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** Runs a command expected to refuse the start; returns its stderr lines after checking how it ended. */
async function refused(spawned: Spawned): Promise<string[]> {
  const code = await spawned.exited;
  const stderr = spawned.stderr().split("\n").filter(Boolean);
  expect(code, spawned.lines().join("\n")).toBe(1);
  expect(stderr[0]).toMatch(HEADING);
  // One plain line per problem: a variable's name (or the one sentence about no upstream), never a stack frame,
  // never JSON, never a secret.
  for (const line of stderr.slice(1)) expect(line).toMatch(/^([A-Z][A-Za-z0-9_]*: \S|No upstream is configured: )/);
  const everything = spawned.stdout() + spawned.stderr();
  expect(everything).not.toMatch(/^\s+at /m);
  expect(everything).not.toMatch(/^\{/m);
  for (const key of Object.values(CANARY)) expect(everything).not.toContain(key);
  return stderr.slice(1);
}

const EVERY_PROBLEM = {
  REPORTS_API_BASE_URL: "not-a-url",
  REPORTS_API_KEY: CANARY.reports,
  ITEMS_API_BASE_URL: "ftp://x",
  ITEMS_API_KEY: CANARY.items,
  ITEMS_API_KEY_LOCATION: "cookie",
  UPSTREAM_TIMEOUT_MS: "soon",
  UPSTREAM_RETRIES: "9",
  SESSION_SECRET: `${"a".repeat(40)}`,
  PURCHASE_CODE_HASH_KEY: "too-short",
  TRUST_PROXY: "maybe",
  PUBLIC_ORIGIN: "portal.example.com/app",
  ADMIN_EMAIL: "root",
  ADMIN_PASSWORD: "hunter2",
  DATABASE_URL: "postgres//gatehouse:pa55word-in-url@127.0.0.1:5432/gatehouse",
  PURCHASE_RATE_LIMIT_PER_USR: "10",
  OTEL_EXPORTER_OTLP_ENDPOINT: "collector 4318",
};
const EVERY_LINE = [
  "PURCHASE_RATE_LIMIT_PER_USR: is not a Gatehouse setting, so it would be ignored; did you mean PURCHASE_RATE_LIMIT_PER_USER?",
  'REPORTS_API_BASE_URL: "not-a-url" must be an absolute http:// or https:// URL',
  'ITEMS_API_BASE_URL: "ftp://x" must start with http:// or https://',
  'ITEMS_API_KEY_LOCATION: "cookie" must be "query-and-form" (default), "query" or "header:<Header-Name>"',
  'UPSTREAM_TIMEOUT_MS: "soon" must be a whole number of milliseconds',
  'UPSTREAM_RETRIES: "9" must be at most 2 retries',
  'TRUST_PROXY: "maybe" must be 0 (no proxy), 1 (one reverse proxy in front), a number of proxies, true or false',
  'PUBLIC_ORIGIN: "portal.example.com/app" must be the portal\'s origin, such as https://portal.example.com (http or https, no path, query or credentials)',
  'ADMIN_EMAIL: "root" must be an address such as name@example.com',
  "ADMIN_PASSWORD: must be at least 12 characters",
  "PURCHASE_CODE_HASH_KEY: must be at least 32 characters",
  "DATABASE_URL: looks like a PostgreSQL URL with a broken scheme; write it as postgres://user:password@host:5432/database",
  "OTEL_EXPORTER_OTLP_ENDPOINT: must be the OTLP/HTTP receiver's URL, such as http://collector:4318",
  // Long enough, but guessable: named although other accounts settings are wrong too.
  "SESSION_SECRET: the secret is a repeated or patterned value anyone could guess (about 0 bits); generate one with: openssl rand -base64 32",
];

describe("npm start refuses a bad configuration before anything listens", () => {
  it("prints every problem at once, one plain line each, and exits 1", async () => {
    const port = await freePort();
    const lines = await refused(npmStart(cwd, { ...EVERY_PROBLEM, PORT: String(port), HOST: "127.0.0.1" }));
    expect(lines).toEqual(EVERY_LINE);
    expect(lines.join("\n")).not.toContain("pa55word");
    // Nothing listened: the port is still free.
    await expect(rawRequest(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it("refuses to run without an upstream, naming the variables and pointing at npm run demo", async () => {
    expect(await refused(npmStart(cwd, { SESSION_SECRET: SECRET }))).toEqual([NO_UPSTREAM]);
  });

  it("names misspelled upstream variables with the names it expected, instead of falling into the demo", async () => {
    const lines = await refused(
      npmStart(cwd, {
        SESSION_SECRET: SECRET,
        REPORTS_API_BASEURL: "https://reports.example.com/seo",
        REPORTS_APIKEY: CANARY.reports,
        ITEMS_API_BASEURL: "https://items.example.com/market",
        ITEMS_APIKEY: CANARY.items,
      }),
    );
    expect(lines).toEqual([
      "REPORTS_API_BASEURL: is not a Gatehouse setting, so it would be ignored; did you mean REPORTS_API_BASE_URL?",
      "REPORTS_APIKEY: is not a Gatehouse setting, so it would be ignored; did you mean REPORTS_API_KEY?",
      "ITEMS_API_BASEURL: is not a Gatehouse setting, so it would be ignored; did you mean ITEMS_API_BASE_URL?",
      "ITEMS_APIKEY: is not a Gatehouse setting, so it would be ignored; did you mean ITEMS_API_KEY?",
      NO_UPSTREAM,
    ]);
  });

  it("catches a look-alike of DATABASE_URL instead of starting on a fresh SQLite store", async () => {
    expect(
      await refused(
        npmStart(cwd, {
          ...EVERY_GOOD_AREA,
          SESSION_SECRET: SECRET,
          DATABSE_URL: "postgres://gatehouse@127.0.0.1:5432/gatehouse",
        }),
      ),
    ).toEqual(["DATABSE_URL: is not a Gatehouse setting, so it would be ignored; did you mean DATABASE_URL?"]);
  });

  it("never runs the demo", async () => {
    expect(await refused(npmStart(cwd, { GATEHOUSE_DEMO: "1" }))).toEqual([
      'GATEHOUSE_DEMO: "1" npm start never runs the demo; unset it, or run the demo with: npm run demo',
    ]);
  });
});

describe("next start run directly checks the same, before it answers anything", () => {
  it("prints every problem at once, one plain line each, and exits 1", async () => {
    const lines = await refused(nextStart(cwd, await freePort(), EVERY_PROBLEM));
    expect(lines).toEqual(EVERY_LINE);
  });

  it("refuses to run without an upstream", async () => {
    expect(await refused(nextStart(cwd, await freePort(), { SESSION_SECRET: SECRET }))).toEqual([NO_UPSTREAM]);
  });
});

describe("audit streaming's settings", () => {
  it("a bad value is one line naming its variable, the collector's URL and token never shown", async () => {
    const lines = await refused(
      npmStart(cwd, {
        SESSION_SECRET: SECRET,
        REPORTS_API_BASE_URL: "https://reports.example.com/seo",
        REPORTS_API_KEY: CANARY.reports,
        AUDIT_SYSLOG_URL: "udp://logs.example.com:514",
        AUDIT_HTTP_URL: "ftp://collector:pw-in-url@collector.example.com/",
        AUDIT_HTTP_TOKEN: "token with spaces",
        AUDIT_RETENTION_DAYS: "forever",
      }),
    );
    expect(lines).toEqual([
      'AUDIT_SYSLOG_URL: "udp://logs.example.com:514" must start with tcp:// or tls:// (syslog over TCP, or over TLS)',
      "AUDIT_HTTP_URL: must be an http:// or https:// URL without a user or password (the token goes in AUDIT_HTTP_TOKEN)",
      "AUDIT_HTTP_TOKEN: must be one word of printable characters (sent as Authorization: Bearer …)",
      'AUDIT_RETENTION_DAYS: "forever" must be a number of days',
    ]);
    expect(lines.join("\n")).not.toMatch(/pw-in-url|token with spaces/);
  });
});

describe("the key-encryption key", () => {
  const AREAS_WITHOUT_KEYS = {
    SESSION_SECRET: SECRET,
    REPORTS_API_BASE_URL: "https://reports.example.com/seo",
    ITEMS_API_BASE_URL: "https://items.example.com/market",
  };

  it("a malformed GATEHOUSE_KEK is one line naming it, not also two asking for the variable that is set", async () => {
    expect(await refused(npmStart(cwd, { ...AREAS_WITHOUT_KEYS, GATEHOUSE_KEK: "c2hvcnQ=" }))).toEqual([
      "GATEHOUSE_KEK: must be 32 random bytes in base64 (openssl rand -base64 32); it decodes to 5 bytes",
    ]);
  });

  it("missing while the store holds sealed keys: one line naming them and the fix, from npm start and from next start", async () => {
    const file = path.join(cwd, "sealed-keys.db");
    const store = await openDb(parseDatabaseUrl(file));
    try {
      await saveActiveKey(store.db, "reports", CANARY.reports, "test", randomBytes(32), SECRET);
      await saveActiveKey(store.db, "items", CANARY.items, "test", randomBytes(32), SECRET);
    } finally {
      await store.close();
    }
    const line =
      "GATEHOUSE_KEK: is missing, and the store holds 2 upstream keys sealed under it; set the key-encryption key they were saved with (32 random bytes in base64 (openssl rand -base64 32) when it was made)";
    expect(await refused(npmStart(cwd, { ...AREAS_WITHOUT_KEYS, DATABASE_URL: file }))).toEqual([line]);
    expect(await refused(nextStart(cwd, await freePort(), { ...AREAS_WITHOUT_KEYS, DATABASE_URL: file }))).toEqual([
      line,
    ]);
  });

  it("missing with no stored key: the areas' keys are what to set, and no store is made", async () => {
    const lines = await refused(
      npmStart(cwd, { SESSION_SECRET: SECRET, REPORTS_API_BASE_URL: "https://reports.example.com/seo" }),
    );
    expect(lines).toEqual([
      "REPORTS_API_KEY: is missing while REPORTS_API_BASE_URL is set; set both, neither to leave this area out, or set GATEHOUSE_KEK to keep the key in the portal (Upstream connections)",
    ]);
    await expect(stat(path.join(cwd, "data", "gatehouse.db"))).rejects.toThrow(/ENOENT/);
  });
});

describe("start-up warnings", () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const warnings = (lines: Array<Record<string, unknown>>) =>
    lines.filter((line) => line.level === "warn").map((line) => String(line.msg));

  it("names each missing or weak production setting, one log line each, and still starts", async () => {
    const gateway = await startGateway(
      sandboxEnv(sandbox, { SESSION_SECRET: "test-session-secret-0123456789-abcdefghij", REPORTS_APIKEY: "left over" }),
    );
    try {
      expect(warnings(gateway.logLines())).toEqual([
        "REPORTS_APIKEY is not a Gatehouse setting and is ignored; did you mean REPORTS_API_KEY?",
        expect.stringMatching(
          /^SESSION_SECRET: the secret looks weak \(about \d+ bits of randomness\); generate one with: openssl rand -base64 32\.$/,
        ),
        expect.stringMatching(
          /^PURCHASE_CODE_HASH_KEY is not set: purchase codes are hashed with a key derived from SESSION_SECRET/,
        ),
        expect.stringMatching(
          /^PUBLIC_ORIGIN is not set: the session cookie is not Secure, no HSTS is sent, every Host name is served/,
        ),
      ]);
      // Requests through a proxy that Gatehouse was not told about: said once.
      for (let i = 0; i < 3; i++) await gateway.request("/api/health", { headers: { "X-Forwarded-Proto": "https" } });
      await expect
        .poll(() => warnings(gateway.logLines()).filter((msg) => msg.startsWith("Requests come through a proxy")))
        .toHaveLength(1);
    } finally {
      await gateway.stop();
    }
  });

  it("behind an https origin without TRUST_PROXY, says the proxy is not trusted", async () => {
    const gateway = await startGateway(
      sandboxEnv(sandbox, {
        SESSION_SECRET: SECRET,
        PUBLIC_ORIGIN: "https://portal.example.test",
        PURCHASE_CODE_HASH_KEY: SECRET.split("").reverse().join(""),
      }),
    );
    try {
      expect(warnings(gateway.logLines())).toEqual([
        expect.stringMatching(/^TRUST_PROXY is not set, but PUBLIC_ORIGIN is https/),
      ]);
    } finally {
      await gateway.stop();
    }
  });

  it("makes a store other users can read private, with a line saying so", async () => {
    const folder = path.join(cwd, "exposed");
    await mkdir(folder, { mode: 0o755 });
    await chmod(folder, 0o755);
    const file = path.join(folder, "gatehouse.db");
    await writeFile(file, "", { mode: 0o644 });
    await chmod(file, 0o644);
    const gateway = await startGateway(sandboxEnv(sandbox, { DATABASE_URL: file }));
    try {
      expect(warnings(gateway.logLines())).toEqual(
        expect.arrayContaining([
          `The store file ${file} was readable by other users (mode 0644); it is now 0600.`,
          `The store's folder ${folder} was open to other users (mode 0755); it is now 0700.`,
        ]),
      );
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(folder)).mode & 0o777).toBe(0o700);
    } finally {
      await gateway.stop();
    }
  });

  it("refuses the clearly unsafe: a one-character session secret, the demo password as ADMIN_PASSWORD (the password policy's line)", async () => {
    const lines = await refused(
      nextStart(
        cwd,
        await freePort(),
        sandboxEnv(sandbox, {
          SESSION_SECRET: "x".repeat(48),
          ADMIN_EMAIL: "ops@example.com",
          ADMIN_PASSWORD: "gatehouse-demo",
        }),
      ),
    );
    expect(lines).toEqual([
      expect.stringMatching(/^ADMIN_PASSWORD: is too easy to guess: /),
      "SESSION_SECRET: the secret is a repeated or patterned value anyone could guess (about 0 bits); generate one with: openssl rand -base64 32",
    ]);
  });
});
