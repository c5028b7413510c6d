// Audit streaming from two instances (next start ×2) on one PostgreSQL and one Redis, the job system on BullMQ:
// rows written through either instance reach the syslog receiver and the HTTP collector the test starts, each
// exactly once while the receivers stay up (the cursor's lease: one instance sends to a destination at a time), and
// every one of them still arrives after both receivers stop and start again on the same ports.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";

import { sandboxEnv, startGateway, type GatewayProcess } from "@/tests/support/gateway";
import { untilEachDestinationFailed } from "@/tests/support/audit-streams";
import { startNdjsonCollector, type NdjsonCollector } from "@/tests/support/ndjson-collector";
import { startTestPostgres, type TestPostgres } from "@/tests/support/postgres";
import { startTestRedis, type TestRedis } from "@/tests/support/redis";
import { startCanarySandbox, type TestSandbox } from "@/tests/support/sandbox";
import { startSyslogReceiver, type SyslogReceiver } from "@/tests/support/syslog-receiver";
import { until } from "@/tests/support/until";

const TOKEN = "cluster-collector-token-5be2";

let sandbox: TestSandbox;
let postgres: TestPostgres;
let redis: TestRedis;
let syslog: SyslogReceiver;
let collector: NdjsonCollector;
let store: Store;
const instances: GatewayProcess[] = [];

beforeAll(async () => {
  [sandbox, postgres, redis, syslog, collector] = await Promise.all([
    startCanarySandbox(),
    startTestPostgres(),
    startTestRedis(),
    startSyslogReceiver(),
    startNdjsonCollector(),
  ]);
  const databaseUrl = await postgres.createDatabase();
  const env = sandboxEnv(sandbox, {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    AUDIT_SYSLOG_URL: `tcp://127.0.0.1:${syslog.port}`,
    AUDIT_HTTP_URL: collector.url,
    AUDIT_HTTP_TOKEN: TOKEN,
  });
  instances.push(
    ...(await Promise.all([
      startGateway({ ...env, INSTANCE_ID: "one" }),
      startGateway({ ...env, INSTANCE_ID: "two" }),
    ])),
  );
  store = await openDb(parseDatabaseUrl(databaseUrl));
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(instances.map((instance) => instance.stop()));
  await store?.close();
  await Promise.allSettled([syslog?.stop(), collector?.stop(), redis?.stop(), postgres?.stop(), sandbox?.close()]);
});

const idOf = (message: string): number => Number(/\[audit@32473 id="(\d+)"/.exec(message)?.[1]);
const writtenIds = async () =>
  (await store.db.selectFrom("audit_log").select("id").orderBy("id").execute()).map((row) => Number(row.id));
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** Sign-ins through both instances in turn: each writes an audit row. */
async function signIns(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await instances[i % 2]!.signIn("admin");
}

async function untilAllReceived(what: string): Promise<number[]> {
  const written = await writtenIds();
  await until(
    () => {
      const atSyslog = new Set(syslog.messages.map(idOf));
      const atCollector = new Set(collector.accepted().map((row) => Number(row.id)));
      return written.every((id) => atSyslog.has(id) && atCollector.has(id));
    },
    `${what}: both receivers got audit rows ${written[0]}–${written.at(-1)}`,
    40_000,
    50,
  );
  return written;
}

describe("two instances on PostgreSQL and Redis", () => {
  it(
    "send each row once while the receivers are up, and lose none across their restart",
    { timeout: 120_000 },
    async () => {
      await signIns(6);
      const first = await untilAllReceived("before the restart");
      // No failure yet, so no batch was sent again: each row exactly once, whichever instance sent it.
      expect(sorted(syslog.messages.map(idOf))).toEqual(first);
      expect(sorted(collector.accepted().map((row) => Number(row.id)))).toEqual(first);

      await syslog.stop();
      await collector.stop();
      await signIns(4);
      await untilEachDestinationFailed(store);
      await syslog.start();
      await collector.start();
      await signIns(2);
      const all = await untilAllReceived("after the restart");
      expect(all.length).toBeGreaterThanOrEqual(first.length + 6);
      // Every row arrived; a row may arrive twice only if its batch's acceptance was not seen (docs/operations.md).
      expect(new Set(syslog.messages.map(idOf))).toEqual(new Set(all));
      expect(new Set(collector.accepted().map((row) => Number(row.id)))).toEqual(new Set(all));
      expect(syslog.garbage).toEqual([]);
    },
  );
});
