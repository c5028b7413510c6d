// The key ring over a real SQLite store: the environment's key wins, a stored key is picked up by a refresh (what
// every instance's poll does), a client taken before the switch keeps its key, and a key the upstream rejects is
// recorded once, for every instance, with one call to the listeners.
import { randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import type { Config } from "@/lib/config";
import { setEventSink, type PortalEvent } from "@/lib/events";
import { UpstreamError } from "@/lib/upstream/errors";
import { KeyRing, onKeyRejected, type KeyRejection } from "@/lib/upstream/keys/ring";
import { keyFingerprint } from "@/lib/upstream/keys/fingerprint";
import { readKeyStates, saveActiveKey } from "@/lib/upstream/keys/store";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const KEK = randomBytes(32);
const SECRET = randomBytes(32).toString("hex");

interface FakeClient {
  key: string;
  read(): Promise<string>;
}

function configWith(reportsKey: string | null): Pick<Config, "upstream"> {
  return {
    upstream: {
      reports: { baseUrl: "http://upstream.invalid/seo", apiKey: reportsKey },
      items: null,
      keyEncryption: { current: KEK, previous: null },
      timeoutMs: 1000,
      policy: {} as Config["upstream"]["policy"],
    },
  };
}

/** A client that answers with its key, or throws the upstream's "rejected" while `rejecting` holds its key. */
function ringFor(config: Pick<Config, "upstream">, db: () => Promise<import("@/lib/db").Db>, rejecting: Set<string>) {
  const build = (key: string, watch: { wrap<T extends object>(client: T): T }): FakeClient =>
    watch.wrap({
      key,
      async read() {
        if (rejecting.has(key))
          throw new UpstreamError({
            kind: "auth",
            area: "reports",
            operation: "reports.list",
            status: 401,
            detail: "rejected Gatehouse's key",
          });
        return key;
      },
    });
  return new KeyRing<FakeClient, FakeClient>({
    config,
    db,
    fingerprintSecret: SECRET,
    build: { reports: build, items: build },
  });
}

describe("the key ring", () => {
  const store = useStore(sqliteBackend);

  it("uses the environment's key whatever the store holds, and says so", async () => {
    const { db } = store();
    await saveActiveKey(db, "reports", "stored-key-0001", "a", KEK, SECRET);
    const ring = ringFor(configWith("environment-key-9999"), async () => db, new Set());
    await ring.refresh();
    expect(await ring.current().reports?.read()).toBe("environment-key-9999");
    expect(ring.keyInUse("reports")).toMatchObject({
      source: "environment",
      last4: "9999",
      fingerprint: keyFingerprint("environment-key-9999", SECRET),
    });
  });

  it("switches to the stored key at a refresh; a client taken before keeps the key it started with", async () => {
    const { db } = store();
    const ring = ringFor(configWith(null), async () => db, new Set());
    await ring.refresh();
    expect(ring.current().reports).toBeNull();
    expect(ring.keyInUse("reports").source).toBe("none");

    await saveActiveKey(db, "reports", "first-key-0001", "a", KEK, SECRET);
    await ring.refresh();
    const before = ring.current().reports!;
    await saveActiveKey(db, "reports", "second-stored-key-0002", "a", KEK, SECRET);
    // Another instance has not polled yet: still the first key.
    expect(await ring.current().reports?.read()).toBe("first-key-0001");
    await ring.refresh();
    expect(await ring.current().reports?.read()).toBe("second-stored-key-0002");
    expect(await before.read()).toBe("first-key-0001");
    expect(ring.keyInUse("reports")).toMatchObject({ source: "portal", last4: "0002" });
  });

  it("reads the store again whenever its feed says so (a poll by default, a bus later)", async () => {
    const { db } = store();
    let changed: (() => void) | null = null;
    const feed = { start: (onChange: () => void) => ((changed = onChange), () => (changed = null)) };
    const build = (key: string, watch: { wrap<T extends object>(client: T): T }) =>
      watch.wrap({ key, read: async () => key });
    const ring = new KeyRing<FakeClient, FakeClient>({
      config: configWith(null),
      db: async () => db,
      fingerprintSecret: SECRET,
      build: { reports: build, items: build },
      feed,
    });
    await ring.refresh();
    ring.startPolling();
    await saveActiveKey(db, "reports", "published-key-0007", "a", KEK, SECRET);
    expect(ring.current().reports).toBeNull();
    changed!();
    await waitFor(async () => ring.current().reports !== null);
    expect(await ring.current().reports?.read()).toBe("published-key-0007");
    ring.stopPolling();
    expect(changed).toBeNull();
  });

  it("records a rejected key once in the store and tells the listeners once; a key that works again clears it, and says so once (upstream.key_restored), as a new key that works does", async () => {
    const { db } = store();
    await saveActiveKey(db, "reports", "revoked-key-0001", "a", KEK, SECRET);
    const rejecting = new Set(["revoked-key-0001"]);
    const ring = ringFor(configWith(null), async () => db, rejecting);
    await ring.refresh();
    const heard: KeyRejection[] = [];
    const stop = onKeyRejected((rejection) => {
      heard.push(rejection);
    });
    const events: PortalEvent[] = [];
    setEventSink("test", async (event) => void events.push(event));
    try {
      for (let i = 0; i < 3; i++) await expect(ring.current().reports!.read()).rejects.toThrow(/rejected/);
      expect(ring.rejection("reports")).toMatchObject({
        fingerprint: keyFingerprint("revoked-key-0001", SECRET),
        source: "portal",
      });
      const stored = await waitFor(async () => (await readKeyStates(db)).reports?.rejectedFingerprint);
      expect(stored).toBe(keyFingerprint("revoked-key-0001", SECRET));
      await waitFor(async () => heard.length === 1);
      expect(heard).toHaveLength(1);

      // A second instance learns it from the store at its next poll.
      const other = ringFor(configWith(null), async () => db, rejecting);
      await other.refresh();
      expect(other.rejection("reports")?.fingerprint).toBe(keyFingerprint("revoked-key-0001", SECRET));

      rejecting.clear();
      expect(await ring.current().reports!.read()).toBe("revoked-key-0001");
      expect(ring.rejection("reports")).toBeNull();
      await waitFor(async () => (await readKeyStates(db)).reports?.rejectedAt === null);
      expect(await ring.current().reports!.read()).toBe("revoked-key-0001");
      expect(events.filter((event) => event.type === "upstream.key_restored").map((event) => event.data)).toEqual([
        { area: "reports", fingerprint: keyFingerprint("revoked-key-0001", SECRET) },
      ]);

      // Rejected again, then an admin activates a new key: the first call that works with it says so, once.
      rejecting.add("revoked-key-0001");
      await expect(ring.current().reports!.read()).rejects.toThrow(/rejected/);
      await waitFor(async () => heard.length === 2);
      await saveActiveKey(db, "reports", "fresh-key-00002", "a", KEK, SECRET);
      await ring.refresh();
      expect(await ring.current().reports!.read()).toBe("fresh-key-00002");
      expect(await ring.current().reports!.read()).toBe("fresh-key-00002");
      expect(events.filter((event) => event.type === "upstream.key_restored").map((event) => event.data)).toEqual([
        { area: "reports", fingerprint: keyFingerprint("revoked-key-0001", SECRET) },
        { area: "reports", fingerprint: keyFingerprint("fresh-key-00002", SECRET) },
      ]);
    } finally {
      stop();
      setEventSink("test", null);
    }
  });
});

async function waitFor<T>(check: () => Promise<T>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("condition not met");
}
