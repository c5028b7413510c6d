// The HTTP collector's batches against a collector the test starts: NDJSON with its content type and the bearer
// token; a 2xx is acceptance; another status, nothing listening, or no answer in time is a failure in a sentence
// that never holds the token.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { ndjson, sendHttp } from "@/lib/audit-streams/http";
import type { AuditRecordOutput } from "@/lib/contract/audit";

import { startNdjsonCollector, type NdjsonCollector } from "@/tests/support/ndjson-collector";

const TOKEN = "tok-secret-123";
const row = (id: number): AuditRecordOutput => ({
  id,
  at: "2026-11-28T10:00:00.000Z",
  user_id: null,
  user_email: null,
  user_name: null,
  action: "report.create",
  target: null,
  outcome: "success",
  request_id: null,
  detail: { note: "line\nbreak" },
  summary: "Created",
  count: 1,
  last_at: null,
});

describe("sendHttp", () => {
  let collector: NdjsonCollector | undefined;
  afterEach(async () => {
    await collector?.stop();
    collector = undefined;
  });

  it("posts the rows as NDJSON with the bearer token, and resolves on a 2xx", async () => {
    collector = await startNdjsonCollector();
    await sendHttp({ url: collector.url, token: TOKEN }, [row(1), row(2)]);
    expect(collector.batches).toHaveLength(1);
    expect(collector.batches[0]).toMatchObject({
      contentType: "application/x-ndjson",
      authorization: `Bearer ${TOKEN}`,
      status: 204,
    });
    expect(collector.accepted()).toEqual([row(1), row(2)]);
    expect(ndjson([row(1)])).toBe(`${JSON.stringify(row(1))}\n`);
    // Without a token, no Authorization header.
    await sendHttp({ url: collector.url, token: null }, [row(3)]);
    expect(collector.batches[1]!.authorization).toBeNull();
  });

  it("fails in a sentence on another status, on nothing listening, and on no answer in time", async () => {
    collector = await startNdjsonCollector();
    collector.answer = () => 503;
    const failure = await sendHttp({ url: collector.url, token: TOKEN }, [row(1)]).catch((error: Error) => error);
    expect((failure as Error).message).toBe("the collector answered 503 Service Unavailable");
    const url = collector.url;
    await collector.stop();
    collector = undefined;
    const refused = await sendHttp({ url, token: TOKEN }, [row(1)]).catch((error: Error) => error);
    expect((refused as Error).message).toBe("the collector could not be reached (ECONNREFUSED)");
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const slow = await sendHttp({ url: `http://127.0.0.1:${port}/`, token: TOKEN }, [row(1)], {
        timeoutMs: 200,
      }).catch((error: Error) => error);
      expect((slow as Error).message).toBe("the collector did not answer within 200 ms");
      for (const error of [failure, refused, slow]) expect((error as Error).message).not.toContain(TOKEN);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
