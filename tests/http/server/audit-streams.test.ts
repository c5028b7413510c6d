// Audit streaming over real processes (next start, on SQLite and PostgreSQL): the gateway sends its audit log to a
// TCP syslog receiver (RFC 5424 in octet-counted frames) and an HTTP collector (NDJSON batches with the bearer
// token) that the test starts on loopback; every row written arrives at both; the receivers stop, more rows are
// written, the receivers start again on the same ports, and every row still arrives (a batch whose sending failed
// is sent again whole: a duplicate is allowed, a gap is not). What the receivers got carries no key, token or
// password; the audit page shows each destination's state without the collector's token or query. Over TLS (a
// certificate made by openssl, trusted through AUDIT_SYSLOG_CA_FILE) on SQLite.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";

import { CANARY } from "@/tests/support/canary";
import { TEST_ADMIN, TEST_SESSION_SECRET } from "@/tests/support/gateway";
import { untilEachDestinationFailed } from "@/tests/support/audit-streams";
import { startNdjsonCollector, type NdjsonCollector } from "@/tests/support/ndjson-collector";
import { selfSignedCertificate } from "@/tests/support/self-signed";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";
import { startSyslogReceiver, type SyslogReceiver } from "@/tests/support/syslog-receiver";
import { until } from "@/tests/support/until";

const TOKEN = "collector-token-0f3a9c";
const QUERY_SECRET = "query-secret-77d1";

/** The audit row id in a syslog message's structured data. */
const idOf = (message: string): number => Number(/\[audit@32473 id="(\d+)"/.exec(message)?.[1]);

describe.each(bothServerStores())("on $name", (serverStore) => {
  let syslog: SyslogReceiver;
  let collector: NdjsonCollector;
  let store: Store;
  const { gateway, client: admin } = setUpGateway({
    store: serverStore,
    signIn: "admin",
    env: async () => {
      syslog = await startSyslogReceiver();
      collector = await startNdjsonCollector();
      return {
        AUDIT_SYSLOG_URL: `tcp://127.0.0.1:${syslog.port}`,
        AUDIT_HTTP_URL: `${collector.url}?key=${QUERY_SECRET}`,
        AUDIT_HTTP_TOKEN: TOKEN,
      };
    },
  });

  beforeAll(async () => {
    store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
  });
  afterAll(async () => {
    await store?.close();
    await syslog?.stop();
    await collector?.stop();
  });

  const writtenIds = async () =>
    (await store.db.selectFrom("audit_log").select("id").orderBy("id").execute()).map((row) => Number(row.id));
  const syslogIds = () => new Set(syslog.messages.map(idOf));
  const collectorIds = () => new Set(collector.accepted().map((row) => Number(row.id)));
  /** Until both receivers have every audit row written so far; returns those ids. */
  const untilAllReceived = async (what: string) => {
    const written = await writtenIds();
    await until(
      () => written.every((id) => syslogIds().has(id)) && written.every((id) => collectorIds().has(id)),
      `${what}: both receivers got audit rows ${written[0]}–${written.at(-1)}`,
      40_000,
      50,
    );
    return written;
  };
  /** Audited actions: each sign-in writes a row. */
  const signIns = async (n: number) => {
    for (let i = 0; i < n; i += 1) await gateway.signIn("admin");
  };

  it(
    "sends every audit row to both, and loses none across a restart of the receivers",
    { timeout: 120_000 },
    async () => {
      await signIns(3);
      const first = await untilAllReceived("before the restart");
      expect(first.length).toBeGreaterThanOrEqual(4);

      // Both receivers go away; rows written meanwhile wait, and the failed batches are logged.
      await syslog.stop();
      await collector.stop();
      await signIns(3);
      await untilEachDestinationFailed(store);
      await syslog.start();
      await collector.start();
      await signIns(2);
      const all = await untilAllReceived("after the restart");
      expect(all.length).toBeGreaterThanOrEqual(first.length + 5);
      // Every id from the first to the last, none missing (duplicates are allowed: docs/operations.md).
      expect([...syslogIds()].sort((a, b) => a - b)).toEqual(expect.arrayContaining(all));
      expect([...collectorIds()].sort((a, b) => a - b)).toEqual(expect.arrayContaining(all));
      expect(syslog.garbage).toEqual([]);

      // The syslog messages are RFC 5424 with the row as JSON after the BOM; the batches NDJSON with the token.
      for (const message of syslog.messages) {
        expect(message).toMatch(/^<1\d\d>1 \d{4}-\d\d-\d\dT[\d:.]+Z \S+ gatehouse \d+ \S+ \[audit@32473 id="\d+"/);
        const body = JSON.parse(message.slice(message.indexOf("\ufeff") + 1));
        expect(body.id).toBe(idOf(message));
      }
      for (const batch of collector.batches) {
        expect(batch.contentType).toBe("application/x-ndjson");
        expect(batch.authorization).toBe(`Bearer ${TOKEN}`);
      }
      expect(collector.accepted()[0]).toMatchObject({
        id: expect.any(Number),
        action: expect.any(String),
        summary: expect.any(String),
      });

      // No secret in what the receivers got, nor in the gateway's output.
      const received = [...syslog.messages, ...collector.batches.flatMap((batch) => batch.lines)].join("\n");
      for (const secret of [TOKEN, QUERY_SECRET, TEST_ADMIN.password, TEST_SESSION_SECRET, ...Object.values(CANARY)])
        expect(received).not.toContain(secret);
      const output = gateway.output().join("\n");
      expect(output).not.toContain(TOKEN);
      expect(output).not.toContain(QUERY_SECRET);
    },
  );

  it("shows each destination's state on the audit page, without the collector's token or query", async () => {
    await untilAllReceived("before reading the page");
    const page = await admin.request("/admin/audit");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Streaming is on.");
    expect(page.text).toContain(`tcp://127.0.0.1:${syslog.port}`);
    expect(page.text).toContain(collector.url);
    expect(page.text).toContain("Syslog server");
    expect(page.text).toContain("HTTP collector");
    expect(page.text).toContain("connect ECONNREFUSED"); // the outage of the first test, its last error
    expect(page.text).not.toContain(TOKEN);
    expect(page.text).not.toContain(QUERY_SECRET);
  });
});

describe("over TLS, trusting the server through AUDIT_SYSLOG_CA_FILE", () => {
  let syslog: SyslogReceiver;
  let dir: string;
  const { gateway } = setUpGateway({
    env: async () => {
      // Debian's openssl makes the certificate (never by hand); without it this test fails, saying so.
      const certificate = selfSignedCertificate();
      if (!certificate) throw new Error("this test needs the openssl command to make a certificate");
      syslog = await startSyslogReceiver({ tls: certificate });
      dir = await mkdtemp(path.join(tmpdir(), "gatehouse-syslog-ca-"));
      await writeFile(path.join(dir, "ca.pem"), certificate.cert);
      return { AUDIT_SYSLOG_URL: `tls://127.0.0.1:${syslog.port}`, AUDIT_SYSLOG_CA_FILE: path.join(dir, "ca.pem") };
    },
  });
  afterAll(async () => {
    await syslog?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("sends every audit row to the TLS syslog server", async () => {
    await gateway.signIn("admin");
    const store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
    try {
      const written = (await store.db.selectFrom("audit_log").select("id").execute()).map((row) => Number(row.id));
      expect(written.length).toBeGreaterThan(0);
      await until(
        () => written.every((id) => syslog.messages.some((message) => idOf(message) === id)),
        "the TLS syslog server got every row",
        15_000,
        50,
      );
      expect(syslog.garbage).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
