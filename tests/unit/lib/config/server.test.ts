import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { ConfigError } from "@/lib/config/env";
import { getConfig } from "@/lib/config";
import { loadServerConfig } from "@/lib/config/server";

const SECRET = "s3cret-".repeat(6); // 42 characters
const OLD_SECRET = "older-secret-".repeat(3); // 39 characters

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gatehouse-config-"));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function load(env: Record<string, string | undefined>, demoMode = false) {
  return loadServerConfig({ env, demoMode, dataDir });
}

function problems(env: Record<string, string | undefined>, demoMode = false): string[] {
  try {
    load(env, demoMode);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError); // handled like the gateway's: printed, and the start stops
    return (error as ConfigError).problems.map((p) => `${p.variable}: ${p.problem}`);
  }
  throw new Error("expected a ConfigError");
}

describe("accounts configuration", () => {
  it("needs only SESSION_SECRET outside demo mode, with 12 h / 2 h session defaults", () => {
    const config = load({ SESSION_SECRET: SECRET });
    expect(config).toMatchObject({
      session: {
        secrets: [SECRET],
        secretSource: "env",
        absoluteTimeoutMs: 12 * 3_600_000,
        idleTimeoutMs: 2 * 3_600_000,
      },
      firstAdmin: null,
      dataKeySource: "derived",
    });
  });

  it("requires SESSION_SECRET outside demo mode, saying how to make one", () => {
    expect(problems({})).toEqual([
      "SESSION_SECRET: required outside demo mode: at least 32 random characters (generate one with: openssl rand -base64 32)",
    ]);
    expect(problems({ SESSION_SECRET: "   " })).toHaveLength(1); // blank is unset
  });

  it("refuses a short secret by naming the variable and the length, never the value", () => {
    const found = problems({ SESSION_SECRET: `${SECRET},tooShortSecretValue` });
    expect(found).toEqual([
      "SESSION_SECRET: entry 2 of 2 has 19 characters; each secret needs at least 32 (generate one with: openssl rand -base64 32)",
    ]);
    expect(found.join(" ")).not.toContain("tooShortSecretValue");
    expect(found.join(" ")).not.toContain(SECRET);
  });

  it("takes several secrets for rotation, newest first", () => {
    expect(load({ SESSION_SECRET: ` ${SECRET} , ${OLD_SECRET} ` }).session.secrets).toEqual([SECRET, OLD_SECRET]);
  });

  it("reads session lifetimes in hours and minutes", () => {
    const config = load({
      SESSION_SECRET: SECRET,
      SESSION_ABSOLUTE_TIMEOUT_HOURS: "24",
      SESSION_IDLE_TIMEOUT_MINUTES: "30",
    });
    expect(config.session.absoluteTimeoutMs).toBe(24 * 3_600_000);
    expect(config.session.idleTimeoutMs).toBe(30 * 60_000);
    expect(
      load({ SESSION_SECRET: SECRET, SESSION_ABSOLUTE_TIMEOUT_HOURS: "0.5", SESSION_IDLE_TIMEOUT_MINUTES: "10" })
        .session.absoluteTimeoutMs,
    ).toBe(1_800_000);
  });

  it("explains bad lifetimes, all at once", () => {
    expect(
      problems({ SESSION_SECRET: SECRET, SESSION_ABSOLUTE_TIMEOUT_HOURS: "twelve", SESSION_IDLE_TIMEOUT_MINUTES: "0" }),
    ).toEqual([
      "SESSION_ABSOLUTE_TIMEOUT_HOURS: must be a number of hours",
      "SESSION_IDLE_TIMEOUT_MINUTES: must be more than 0",
    ]);
    expect(
      problems({ SESSION_SECRET: SECRET, SESSION_ABSOLUTE_TIMEOUT_HOURS: "1", SESSION_IDLE_TIMEOUT_MINUTES: "90" }),
    ).toEqual([
      "SESSION_IDLE_TIMEOUT_MINUTES: longer than SESSION_ABSOLUTE_TIMEOUT_HOURS, so it would never apply; shorten it or leave it unset",
    ]);
    expect(problems({ SESSION_SECRET: SECRET, SESSION_ABSOLUTE_TIMEOUT_HOURS: "9999" })).toEqual([
      "SESSION_ABSOLUTE_TIMEOUT_HOURS: must be at most 720",
    ]);
  });

  it("names each room's bad values in one line each, in the rooms' order", () => {
    expect(
      problems({
        SESSION_SECRET: SECRET,
        PURCHASE_RATE_LIMIT_PER_USER: "many",
        PURCHASE_RATE_LIMIT_PER_IP: "1.5",
        PURCHASE_BULK_LIMIT_PER_HOUR: "0",
        PURCHASE_CODE_FORMAT: "strict",
        REPORT_HISTORY_RETENTION_DAYS: "9999",
        REPORTS_API_CALLS_PER_MINUTE: "lots",
        REPORT_SCHEDULE_MAX_SHARE: "2",
        TOKEN_RATE_LIMIT_PER_MINUTE: "0",
        WEBHOOK_ALLOW_PRIVATE: "yes",
      }),
    ).toEqual([
      "PURCHASE_RATE_LIMIT_PER_USER: must be a number of requests per minute",
      "PURCHASE_RATE_LIMIT_PER_IP: must be a whole number of requests per minute",
      "PURCHASE_BULK_LIMIT_PER_HOUR: must be at least 1",
      "PURCHASE_CODE_FORMAT: must be one of: auto, uuid, exact",
      "REPORT_HISTORY_RETENTION_DAYS: must be at most 3650",
      "REPORTS_API_CALLS_PER_MINUTE: must be a number of calls per minute",
      "REPORT_SCHEDULE_MAX_SHARE: must be at most 1 (the whole budget)",
      "TOKEN_RATE_LIMIT_PER_MINUTE: must be at least 1",
      "WEBHOOK_ALLOW_PRIVATE: must be 1 (allow http and private addresses, for development) or 0",
    ]);
  });

  it("groups the rooms' settings, with their defaults", () => {
    expect(load({ SESSION_SECRET: SECRET })).toMatchObject({
      purchases: {
        rateLimits: { perUser: 30, perIp: 120 },
        bulkLimitPerHour: 1000,
        codeFormat: "auto",
        itemsCallsPerMinute: 60,
        sweepMaxShare: 0.2,
      },
      reports: { retentionDays: 400, callsPerMinute: 60, scheduleMaxShare: 0.5 },
      tokens: { rateLimitPerMinute: 600 },
      webhooks: { allowPrivate: false, demoReceiverUrl: null },
    });
  });

  describe("first admin", () => {
    it("comes from ADMIN_EMAIL and ADMIN_PASSWORD together, the email normalised", () => {
      const config = load({
        SESSION_SECRET: SECRET,
        ADMIN_EMAIL: " Root@Example.com ",
        ADMIN_PASSWORD: "correct horse battery",
      });
      expect(config.firstAdmin).toEqual({ email: "root@example.com", password: "correct horse battery" });
    });

    it("refuses one without the other, and a password that breaks the policy (without echoing it)", () => {
      expect(problems({ SESSION_SECRET: SECRET, ADMIN_EMAIL: "root@example.com" })).toEqual([
        "ADMIN_PASSWORD: missing: ADMIN_EMAIL and ADMIN_PASSWORD create the first admin together",
      ]);
      expect(problems({ SESSION_SECRET: SECRET, ADMIN_PASSWORD: "correct horse battery" })).toEqual([
        "ADMIN_EMAIL: missing: ADMIN_EMAIL and ADMIN_PASSWORD create the first admin together",
      ]);
      const weak = problems({ SESSION_SECRET: SECRET, ADMIN_EMAIL: "root", ADMIN_PASSWORD: "hunter2" });
      expect(weak).toEqual([
        "ADMIN_EMAIL: must be an address such as name@example.com",
        "ADMIN_PASSWORD: must be at least 12 characters",
      ]);
      expect(weak.join(" ")).not.toContain("hunter2");
      expect(
        problems({ SESSION_SECRET: SECRET, ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: "password1234" }),
      ).toEqual([
        "ADMIN_PASSWORD: is too easy to guess: This is similar to a commonly used password. Use a longer phrase of unrelated words",
      ]);
      expect(
        problems({ SESSION_SECRET: SECRET, ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: "root@example.com" }),
      ).toEqual(["ADMIN_PASSWORD: must not contain the account's email"]);
      expect(
        problems({ SESSION_SECRET: SECRET, ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: "\u200b".repeat(12) }),
      ).toEqual(["ADMIN_PASSWORD: must not be only spaces or invisible characters"]);
    });
  });

  describe("purchase-code hash key", () => {
    it("is PURCHASE_CODE_HASH_KEY when given", () => {
      const key = "k".repeat(32);
      expect(load({ SESSION_SECRET: SECRET, PURCHASE_CODE_HASH_KEY: key })).toMatchObject({
        dataKey: key,
        dataKeySource: "env",
      });
      expect(problems({ SESSION_SECRET: SECRET, PURCHASE_CODE_HASH_KEY: "short" })).toEqual([
        "PURCHASE_CODE_HASH_KEY: must be at least 32 characters",
      ]);
    });

    it("is otherwise derived from the newest session secret: stable for it, different from it", () => {
      const derived = load({ SESSION_SECRET: SECRET }).dataKey;
      expect(derived).toMatch(/^[0-9a-f]{64}$/);
      expect(derived).not.toContain(SECRET);
      expect(load({ SESSION_SECRET: `${SECRET},${OLD_SECRET}` }).dataKey).toBe(derived);
      expect(load({ SESSION_SECRET: OLD_SECRET }).dataKey).not.toBe(derived);
    });
  });

  describe("demo mode", () => {
    it("generates a session secret once, keeps it in <data>/session-secret (0600), and reuses it", async () => {
      const first = load({}, true);
      expect(first.session.secretSource).toBe("demo-file");
      const file = path.join(dataDir, "session-secret");
      expect((await readFile(file, "utf8")).trim()).toBe(first.session.secrets[0]);
      expect((first.session.secrets[0] ?? "").length).toBeGreaterThanOrEqual(32);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(load({}, true).session.secrets).toEqual(first.session.secrets);
    });

    it("creates the data folder when missing", async () => {
      const nested = path.join(dataDir, "a", "b");
      const config = loadServerConfig({ env: {}, demoMode: true, dataDir: nested });
      expect((await readFile(path.join(nested, "session-secret"), "utf8")).trim()).toBe(config.session.secrets[0]);
    });

    it("ignores a configured deployment's secrets, first admin, origin and proxy: the demo keeps its own", () => {
      const config = load(
        {
          SESSION_SECRET: SECRET,
          ADMIN_EMAIL: "ops@example.com",
          ADMIN_PASSWORD: "an operator password",
          PURCHASE_CODE_HASH_KEY: SECRET,
          PUBLIC_ORIGIN: "https://portal.example.com",
          TRUST_PROXY: "1",
        },
        true,
      );
      expect(config).toMatchObject({
        session: { secretSource: "demo-file" },
        firstAdmin: null,
        dataKeySource: "derived",
      });
      expect(config.session.secrets).not.toContain(SECRET);
      expect(config.edge).toEqual({ trustProxyHops: 0, publicOrigin: null, allowedHosts: [] });
    });

    it("refuses a kept secret that is too short, saying how to recover", async () => {
      await writeFile(path.join(dataDir, "session-secret"), "short\n");
      expect(problems({}, true)).toEqual([
        `SESSION_SECRET: not set, and the demo secret kept in ${path.join(dataDir, "session-secret")} is shorter than 32 characters; delete that file to generate a new one`,
      ]);
    });
  });
});

describe("getConfig", () => {
  const names = ["GATEHOUSE_DEMO", "SESSION_SECRET", "REPORTS_API_BASE_URL", "REPORTS_API_KEY"] as const;
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("reads process.env once and keeps the result, the server's rooms beside the upstreams", async () => {
    delete process.env.GATEHOUSE_DEMO;
    process.env.REPORTS_API_BASE_URL = "https://reports.example.com/seo";
    process.env.REPORTS_API_KEY = "reports-key-123";
    process.env.SESSION_SECRET = SECRET;
    const first = await getConfig();
    process.env.SESSION_SECRET = OLD_SECRET;
    expect(await getConfig()).toBe(first);
    expect(first.session.secrets).toEqual([SECRET]);
    expect(first.upstream.reports?.baseUrl).toBe("https://reports.example.com/seo");
  });
});
