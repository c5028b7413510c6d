// Audit streaming's variables through the server's configuration: the destinations and retention as set, each bad
// value one problem naming its variable (the collector's URL and token never shown), and the variables that only
// mean something together.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { DEFAULT_DELIVERY_LOG_RETENTION_DAYS } from "@/lib/config/audit-streams";
import { ConfigError } from "@/lib/config/env";
import { loadServerConfig } from "@/lib/config/server";

const SECRET = "s3cret-".repeat(6);
const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "gatehouse-audit-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const load = (env: Record<string, string>) =>
  loadServerConfig({ env: { SESSION_SECRET: SECRET, ...env }, demoMode: false, dataDir: dir });

function problems(env: Record<string, string>): Array<{ variable: string; problem: string; value?: string }> {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.map(({ variable, problem, value }) => ({ variable, problem, value }));
  }
  throw new Error("no problem found");
}

describe("audit streaming's configuration", () => {
  it("is off, with the audit log kept forever, when nothing is set", () => {
    expect(load({}).auditStreams).toEqual({
      syslog: null,
      http: null,
      retentionDays: null,
      deliveryLogRetentionDays: DEFAULT_DELIVERY_LOG_RETENTION_DAYS,
    });
  });

  it("reads a TCP or TLS syslog server (with a CA file), an HTTP collector with its token, and the retentions", async () => {
    const ca = path.join(dir, "ca.pem");
    await writeFile(ca, PEM);
    expect(
      load({
        AUDIT_SYSLOG_URL: "tls://logs.example.com:6514",
        AUDIT_SYSLOG_CA_FILE: ca,
        AUDIT_HTTP_URL: "https://collector.example.com/in?source=gatehouse",
        AUDIT_HTTP_TOKEN: "tok-123",
        AUDIT_RETENTION_DAYS: "365",
        AUDIT_STREAM_LOG_RETENTION_DAYS: "7",
      }).auditStreams,
    ).toEqual({
      syslog: { transport: "tls", host: "logs.example.com", port: 6514, ca: PEM },
      http: { url: "https://collector.example.com/in?source=gatehouse", token: "tok-123" },
      retentionDays: 365,
      deliveryLogRetentionDays: 7,
    });
    expect(load({ AUDIT_SYSLOG_URL: "tcp://[::1]:514" }).auditStreams.syslog).toEqual({
      transport: "tcp",
      host: "::1",
      port: 514,
      ca: null,
    });
  });

  it.each([
    ["udp://logs.example.com:514", "must start with tcp:// or tls://"],
    ["logs.example.com:514", "must start with tcp:// or tls://"],
    ["tcp://logs.example.com", "must name a host and a port"],
    ["tcp://logs.example.com:514/path", "no path, user or query"],
    ["not a url", "must be tcp://host:port or tls://host:port"],
  ])("refuses AUDIT_SYSLOG_URL=%s in one sentence naming it", (value, words) => {
    const [problem, ...others] = problems({ AUDIT_SYSLOG_URL: value });
    expect(others).toEqual([]);
    expect(problem).toMatchObject({ variable: "AUDIT_SYSLOG_URL", value });
    expect(problem!.problem).toContain(words);
  });

  it("refuses a CA file that cannot be read or holds no certificate, and one without TLS", async () => {
    expect(problems({ AUDIT_SYSLOG_URL: "tls://h:1", AUDIT_SYSLOG_CA_FILE: path.join(dir, "none.pem") })).toEqual([
      {
        variable: "AUDIT_SYSLOG_CA_FILE",
        problem: "must name a readable PEM file (no such file)",
        value: path.join(dir, "none.pem"),
      },
    ]);
    const empty = path.join(dir, "empty.pem");
    await writeFile(empty, "nothing");
    expect(problems({ AUDIT_SYSLOG_URL: "tls://h:1", AUDIT_SYSLOG_CA_FILE: empty })[0]!.problem).toContain(
      "holds none",
    );
    const ca = path.join(dir, "ca.pem");
    await writeFile(ca, PEM);
    expect(problems({ AUDIT_SYSLOG_URL: "tcp://h:1", AUDIT_SYSLOG_CA_FILE: ca })).toEqual([
      {
        variable: "AUDIT_SYSLOG_CA_FILE",
        problem: "is only read with AUDIT_SYSLOG_URL=tls://…; set that or unset this",
        value: undefined,
      },
    ]);
  });

  it("refuses a bad collector URL or token without showing either, and a token without a URL", () => {
    const url = "ftp://user:pw@collector.example.com/";
    expect(problems({ AUDIT_HTTP_URL: url })).toEqual([
      {
        variable: "AUDIT_HTTP_URL",
        problem: "must be an http:// or https:// URL without a user or password (the token goes in AUDIT_HTTP_TOKEN)",
        value: undefined,
      },
    ]);
    expect(problems({ AUDIT_HTTP_URL: "https://c.example.com/", AUDIT_HTTP_TOKEN: "two words" })).toEqual([
      {
        variable: "AUDIT_HTTP_TOKEN",
        problem: "must be one word of printable characters (sent as Authorization: Bearer …)",
        value: undefined,
      },
    ]);
    expect(problems({ AUDIT_HTTP_TOKEN: "tok" })).toEqual([
      { variable: "AUDIT_HTTP_TOKEN", problem: "is only sent to AUDIT_HTTP_URL, which is not set", value: undefined },
    ]);
  });

  it("refuses retentions that are not whole days in range", () => {
    expect(problems({ AUDIT_RETENTION_DAYS: "0", AUDIT_STREAM_LOG_RETENTION_DAYS: "1.5" })).toEqual([
      { variable: "AUDIT_RETENTION_DAYS", problem: "must be at least 1", value: "0" },
      { variable: "AUDIT_STREAM_LOG_RETENTION_DAYS", problem: "must be a whole number of days", value: "1.5" },
    ]);
  });
});
