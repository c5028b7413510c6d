// The rules on SQLite and PostgreSQL, with a clock the test moves: flapping results send nothing until they last,
// a recovery is sent once, repeats merge while held, quiet hours hold in the person's zone, each topic reaches only
// whom it should (role, project, rule, the bulk job's owner, e-mail off, disabled), and an upstream is down only
// after its minutes.
import { describe, expect, it } from "vitest";

import type { Db } from "@/lib/db";
import { WEBHOOK_EVENTS } from "@/lib/contract/values";
import {
  checkDueConditions,
  notifyOfEvent,
  readNewResults,
  RULES_EVENTS,
  type RulesDeps,
} from "@/lib/notifications/rules";
import { recordResults, type SeenResult } from "@/lib/reports/history";

import { addChannel, addPerson, deliveries, rulesOn, subscribe } from "@/tests/support/notifications";
import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const BACKENDS = bothBackends();

let minute = 0;
const result = (report_id: number, value: SeenResult["result"], project = "acme.io"): SeenResult => ({
  report_id,
  url: `https://${project}/page-${report_id}`,
  project,
  result: value,
  generated_at: new Date(Date.UTC(2026, 10, 28, 12, minute++)).toISOString(),
});

/** Records results (as the recorder does) and lets the rules read them (as the event or the tick does). */
async function see(deps: RulesDeps, ...results: SeenResult[]): Promise<void> {
  for (const r of results) {
    await recordResults(deps.db, [r], "regenerate", deps.now());
    await readNewResults(deps);
  }
}

/** Each delivery as "recipient topic messages", sorted (rows written at one instant have no order). */
async function topics(db: Db): Promise<string[]> {
  return (await deliveries(db)).map((d) => `${d.recipient_id} ${d.topic} ${d.messages.length}`).sort();
}

describe("RULES_EVENTS", () => {
  it("are the events some topic comes from; the rest (a purchase checked, a report created) cost the rules nothing", () => {
    expect([...RULES_EVENTS].sort()).toEqual([
      "bulk_job.finished",
      "licence.limit_reached",
      "purchase.revoked",
      "purchase.support_expiring",
      "report.result_changed",
      "token.quota_reached",
      "upstream.key_rejected",
      "upstream.key_restored",
      "upstream.recovered",
      "upstream.unavailable",
    ]);
    expect(WEBHOOK_EVENTS.filter((type) => !RULES_EVENTS.has(type))).toContain("purchase.checked");
  });
});

describe.each<Backend>(BACKENDS)("rules on $name", (backend) => {
  const store = useStore(backend);

  it("flapping results send nothing; a worse result that lasts 2 results sends one regression; a recovery once", async () => {
    const { db } = store();
    const { deps } = rulesOn(db, "2026-11-28T12:00:00Z");
    await addPerson(db, "ed", "editor");
    await subscribe(db, "user", "ed", "report.regressed");
    await subscribe(db, "user", "ed", "report.recovered");

    await see(deps, result(1, "good"), result(1, "bad"), result(1, "good"), result(1, "bad"), result(1, "good"));
    expect(await deliveries(db)).toEqual([]);

    await see(deps, result(1, "bad"), result(1, "bad"));
    const [regressed] = await deliveries(db);
    expect(await topics(db)).toEqual(["ed report.regressed 1"]);
    expect(regressed).toMatchObject({ recipient_kind: "user", channel_kind: "email", status: "held" });
    expect(regressed!.messages[0]).toMatchObject({
      title: "acme.io/page-1 went from good to bad",
      link: "/reports/1",
      tone: "bad",
      group: "acme.io",
    });

    await see(deps, result(1, "bad"), result(1, "good"), result(1, "bad"), result(1, "good"), result(1, "good"));
    await see(deps, result(1, "good"), result(1, "good"));
    expect(await topics(db)).toEqual(["ed report.recovered 1", "ed report.regressed 1"]);
  });

  it("repeats merge while held (the merge window), and a new row is written once the first is no longer held", async () => {
    const { db } = store();
    const { deps, setNow, kicks } = rulesOn(db, "2026-11-28T12:00:00Z", { resultsToLast: 1 });
    await addPerson(db, "ed", "editor");
    await subscribe(db, "user", "ed", "report.regressed");
    await see(deps, result(2, "good"), result(3, "good"), result(4, "good"));
    await see(deps, result(2, "bad"), result(3, "decent"));
    const [merged] = await deliveries(db);
    expect(merged!.messages.map((m) => m.title)).toEqual([
      "acme.io/page-2 went from good to bad",
      "acme.io/page-3 went from good to decent",
    ]);
    expect(merged!.not_before).toBe("2026-11-28T12:02:00.000Z");
    expect(kicks()).toBe(2);
    // The sweep took it (pending): the next repeat starts a row of its own.
    await db.updateTable("notification_deliveries").set({ status: "pending" }).execute();
    setNow("2026-11-28T12:03:00Z");
    await see(deps, result(4, "bad"));
    expect(await topics(db)).toEqual(["ed report.regressed 1", "ed report.regressed 2"]);
  });

  it("quiet hours hold a person's message to their end in his zone (Berlin, Los Angeles); a channel's is not held", async () => {
    const { db } = store();
    // 22:30Z: 23:30 in Berlin (quiet), 14:30 in Los Angeles (not).
    const { deps } = rulesOn(db, "2026-11-27T22:30:00Z", { resultsToLast: 1 });
    await addPerson(db, "berlin", "editor", { timeZone: "Europe/Berlin" });
    await addPerson(db, "la", "editor", { timeZone: "America/Los_Angeles" });
    await addChannel(db, "team");
    for (const id of ["berlin", "la"]) {
      await subscribe(db, "user", id, "report.regressed");
      await db
        .insertInto("notification_preferences")
        .values({ user_id: id, quiet_start: 22 * 60, quiet_end: 7 * 60, updated_at: "2026-11-01T00:00:00Z" })
        .execute();
    }
    await subscribe(db, "channel", "team", "report.regressed");
    await see(deps, result(5, "good"), result(5, "bad"));
    const byId = Object.fromEntries((await deliveries(db)).map((d) => [d.recipient_id, d]));
    expect(byId.berlin!.not_before).toBe("2026-11-28T06:00:00.000Z");
    expect(byId.la!.not_before).toBe("2026-11-27T22:32:00.000Z");
    expect(byId.team).toMatchObject({ channel_kind: "slack", not_before: "2026-11-27T22:32:00.000Z" });
  });

  it("a subscription narrowed to a project or a rule, e-mail off, a disabled person or channel, a role that lost the topic", async () => {
    const { db } = store();
    const { deps } = rulesOn(db, "2026-11-28T12:00:00Z", { resultsToLast: 1 });
    await addPerson(db, "acme", "editor");
    await addPerson(db, "other", "editor");
    await addPerson(db, "tobad", "editor");
    await addPerson(db, "quiet", "editor");
    await addPerson(db, "gone", "editor", { disabled: true });
    await addPerson(db, "support", "support");
    await addChannel(db, "off", { disabled: true });
    await subscribe(db, "user", "acme", "report.regressed", { project: "acme.io" });
    await subscribe(db, "user", "other", "report.regressed", { project: "other.io" });
    await subscribe(db, "user", "tobad", "report.regressed", { rule: "to_bad" });
    await subscribe(db, "user", "quiet", "report.regressed");
    await db
      .insertInto("notification_preferences")
      .values({ user_id: "quiet", email_enabled: 0, updated_at: "2026-11-01T00:00:00Z" })
      .execute();
    await subscribe(db, "user", "gone", "report.regressed");
    await subscribe(db, "user", "support", "report.regressed");
    await subscribe(db, "channel", "off", "report.regressed");
    await see(deps, result(6, "good"), result(6, "decent"));
    expect(await topics(db)).toEqual(["acme report.regressed 1"]);
    await see(deps, result(7, "good"), result(7, "bad"));
    // acme.io's second regression merges into the first, still held.
    expect(await topics(db)).toEqual(["acme report.regressed 2", "tobad report.regressed 1"]);
  });

  it("an upstream is down only after its minutes, up once after; a key rejected and restored", async () => {
    const { db } = store();
    const { deps, setNow } = rulesOn(db, "2026-11-28T12:00:00Z");
    await addPerson(db, "admin", "admin");
    await addPerson(db, "viewer", "viewer");
    for (const topic of ["upstream.down", "upstream.up", "upstream.key_rejected", "upstream.key_restored"]) {
      await subscribe(db, "user", "admin", topic);
      await subscribe(db, "user", "viewer", topic);
    }
    const event = (type: "upstream.unavailable" | "upstream.recovered", at: string) =>
      notifyOfEvent(deps, { type, data: { area: "items" }, occurredAt: new Date(at) });
    await event("upstream.unavailable", "2026-11-28T12:00:00Z");
    setNow("2026-11-28T12:02:00Z");
    expect(await checkDueConditions(deps)).toBe(0);
    await event("upstream.recovered", "2026-11-28T12:02:00Z"); // a blip: nothing
    await event("upstream.unavailable", "2026-11-28T12:03:00Z");
    setNow("2026-11-28T12:08:00Z");
    expect(await checkDueConditions(deps)).toBe(1);
    expect(await checkDueConditions(deps)).toBe(0);
    await event("upstream.recovered", "2026-11-28T12:09:00Z");
    await event("upstream.recovered", "2026-11-28T12:10:00Z");
    expect(await topics(db)).toEqual([
      "admin upstream.down 1",
      "admin upstream.up 1",
      "viewer upstream.down 1",
      "viewer upstream.up 1",
    ]);
    const down = (await deliveries(db)).find((d) => d.topic === "upstream.down")!.messages[0]!;
    expect(down).toMatchObject({ title: "The item API is down", since: "2026-11-28T12:03:00.000Z" });

    await db.deleteFrom("notification_deliveries").execute();
    await notifyOfEvent(deps, { type: "upstream.key_rejected", data: { area: "reports", fingerprint: "f" } });
    await notifyOfEvent(deps, { type: "upstream.key_rejected", data: { area: "reports", fingerprint: "f" } });
    await notifyOfEvent(deps, { type: "upstream.key_restored", data: { area: "reports", fingerprint: "f" } });
    await notifyOfEvent(deps, { type: "upstream.key_restored", data: { area: "reports", fingerprint: "f" } });
    expect(await topics(db)).toEqual(["admin upstream.key_rejected 1", "admin upstream.key_restored 1"]);
  });

  it("a bulk job's end reaches only its owner; a purchase's message carries its last 4 characters only", async () => {
    const { db } = store();
    const { deps } = rulesOn(db, "2026-11-28T12:00:00Z");
    await addPerson(db, "owner", "support");
    await addPerson(db, "colleague", "support");
    await addPerson(db, "viewer", "viewer");
    for (const id of ["owner", "colleague", "viewer"]) {
      await subscribe(db, "user", id, "bulk.finished");
      await subscribe(db, "user", id, "purchase.revoked");
    }
    await db
      .insertInto("bulk_jobs")
      .values({
        id: "11111111-1111-4111-8111-111111111111",
        user_id: "owner",
        user_email: "owner@example.com",
        status: "done",
        total: 3,
        duplicates: 0,
        created_at: "2026-11-28T11:00:00Z",
        started_at: null,
        finished_at: null,
        expires_at: "2026-12-28T11:00:00Z",
        waiting_until: null,
      })
      .execute();
    await notifyOfEvent(deps, {
      type: "bulk_job.finished",
      data: {
        job: { id: "11111111-1111-4111-8111-111111111111", total: 3, valid: 2, invalid: 1, revoked: 0, failed: 0 },
      },
    });
    await notifyOfEvent(deps, {
      type: "purchase.revoked",
      data: { code_hash: "h", code_last4: "a1b2c3d4-e5f6-7890-abcd-ef0123456789", previously_valid: true },
    });
    expect(await topics(db)).toEqual([
      "colleague purchase.revoked 1",
      "owner bulk.finished 1",
      "owner purchase.revoked 1",
    ]);
    // A token's spent quota: to its owner alone, whoever else subscribed.
    for (const id of ["owner", "colleague"]) await subscribe(db, "user", id, "token.quota_reached");
    await notifyOfEvent(deps, {
      type: "token.quota_reached",
      data: {
        token: { id: "t1", name: "nightly sync" },
        user_id: "owner",
        month: "2026-11",
        quota: 1000,
        resets_at: "2026-12-01T00:00:00.000Z",
      },
    });
    const quota = (await deliveries(db)).filter((d) => d.topic === "token.quota_reached");
    expect(quota.map((d) => d.messages[0]!.title)).toEqual(["Your API token nightly sync used its monthly quota"]);
    const revoked = (await deliveries(db)).find((d) => d.topic === "purchase.revoked")!.messages[0]!;
    expect(revoked.title).toBe("Purchase …6789 was revoked");
    expect(JSON.stringify(revoked)).not.toContain("ef0123456789");
  });
});
