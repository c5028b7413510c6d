// Notifications' subscriptions and preferences over real HTTP (next start ↔ sandbox, on SQLite and PostgreSQL):
// the API's validation (400 naming the fields, 403 for a topic the role may not have, 404 for an unknown channel),
// and end to end, the rules in the running portal: a report regenerated twice with a worse result makes one held
// delivery for the person subscribed to its project; a report that flaps makes none. (tests/http/api/admin/notification-channels.test.ts proves the sending; the
// tick runs every 300 ms here.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";
import { nextDigestDue } from "@/lib/notifications/digest-due";

import { injectIntoServer } from "@/tests/support/processes";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";

const FLAPPING = 140;
const LASTING = 141;
const MINUTE = 60_000;
/** A time `minutes` before now, in whole seconds as the upstream writes them. */
const ago = (minutes: number) =>
  new Date(Math.floor((Date.now() - minutes * MINUTE) / 1000) * 1000).toISOString().replace(".000Z", "Z");
const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

describe.each(bothServerStores())("on $name", (serverStore) => {
  const {
    sandbox,
    gateway,
    clients: { admin, editor, viewer },
  } = setUpGateway({
    store: serverStore,
    signIn: ["admin", "editor", "viewer"],
    env: injectIntoServer({ "notification-timings": { tickMs: 300 } }),
  });
  let store: Store;
  beforeAll(async () => {
    store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
  });
  afterAll(async () => {
    await store?.close();
  });

  describe("a person's subscriptions", () => {
    it("answers none and the topics his role allows (a viewer: no purchases, no keys; his tokens' quotas)", async () => {
      const res = await viewer.request("/api/notifications/subscriptions");
      expect(res.status, res.text).toBe(200);
      expect(res.json.data).toEqual({
        subscriptions: [],
        topics: ["report.regressed", "report.recovered", "upstream.down", "upstream.up", "token.quota_reached"],
      });
    });

    it("refuses an unknown topic and a narrowing of a topic that is not a report's, naming the fields (400)", async () => {
      const res = await editor.request(
        "/api/notifications/subscriptions",
        json("PUT", {
          subscriptions: [
            { topic: "report.exploded" },
            { topic: "bulk.finished", project: "acme.io" },
            { topic: "report.regressed", rule: "off" },
          ],
        }),
      );
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.json.error.fields).sort()).toEqual([
        "subscriptions.0.topic",
        "subscriptions.1.project",
        "subscriptions.2.rule",
      ]);
    });

    it("refuses a topic the role may not have (403), naming it; keeps what was there", async () => {
      const purchases = await viewer.request(
        "/api/notifications/subscriptions",
        json("PUT", { subscriptions: [{ topic: "report.regressed" }, { topic: "purchase.revoked" }] }),
      );
      expect(purchases.status, purchases.text).toBe(403);
      expect(purchases.json.error.message).toContain("purchase.revoked");
      expect(purchases.json.error.fields).toEqual({ "subscriptions.1.topic": expect.any(String) });
      const keys = await editor.request(
        "/api/notifications/subscriptions",
        json("PUT", { subscriptions: [{ topic: "upstream.key_rejected" }] }),
      );
      expect(keys.status, keys.text).toBe(403);
      expect((await viewer.request("/api/notifications/subscriptions")).json.data.subscriptions).toEqual([]);
    });

    it("saves the list whole (duplicates once) and answers it", async () => {
      const res = await viewer.request(
        "/api/notifications/subscriptions",
        json("PUT", {
          subscriptions: [
            { topic: "upstream.down" },
            { topic: "report.regressed", project: "acme.io", rule: "to_bad" },
            { topic: "upstream.down" },
          ],
        }),
      );
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.subscriptions).toEqual([
        { topic: "report.regressed", project: "acme.io", rule: "to_bad" },
        { topic: "upstream.down", project: null, rule: null },
      ]);
    });
  });

  describe("a person's preferences", () => {
    it("answers the defaults, in UTC when he picked no zone (the server cannot know his browser's)", async () => {
      const res = await editor.request("/api/notifications/preferences");
      expect(res.status, res.text).toBe(200);
      expect(res.json.data).toEqual({
        email_enabled: true,
        quiet_hours: null,
        digest: { enabled: true, day: 1, hour: 9 },
        time_zone: "UTC",
        time_zone_source: "default",
      });
    });

    it("refuses a time that is not HH:MM, an empty quiet period and a day out of range (400 with fields)", async () => {
      const res = await editor.request(
        "/api/notifications/preferences",
        json("PUT", {
          email_enabled: true,
          quiet_hours: { start: "25:00", end: "07:00" },
          digest: { enabled: true, day: 7, hour: 9 },
        }),
      );
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.json.error.fields).sort()).toEqual(["digest.day", "quiet_hours.start"]);
      const same = await editor.request(
        "/api/notifications/preferences",
        json("PUT", {
          email_enabled: true,
          quiet_hours: { start: "07:00", end: "07:00" },
          digest: { enabled: true, day: 1, hour: 9 },
        }),
      );
      expect(same.status, same.text).toBe(400);
      expect(Object.keys(same.json.error.fields)).toEqual(["quiet_hours.end"]);
    });

    it("saves quiet hours in his picked zone", async () => {
      const zone = await viewer.request("/api/auth/me", json("PATCH", { time_zone: "Europe/Berlin" }));
      expect(zone.status, zone.text).toBe(200);
      const res = await viewer.request(
        "/api/notifications/preferences",
        json("PUT", {
          email_enabled: true,
          quiet_hours: { start: "22:00", end: "07:00" },
          digest: { enabled: false, day: 5, hour: 17 },
        }),
      );
      expect(res.status, res.text).toBe(200);
      expect(res.json.data).toEqual({
        email_enabled: true,
        quiet_hours: { start: "22:00", end: "07:00" },
        digest: { enabled: false, day: 5, hour: 17 },
        time_zone: "Europe/Berlin",
        time_zone_source: "picked",
      });
    });

    it("a zone picked moves when his digest is due: the tick reads his row again at once", async () => {
      const me = await editor.request("/api/auth/me");
      const id = me.json.data.user.id as string;
      const dueAt = async () =>
        (
          await store.db
            .selectFrom("notification_digest_due")
            .select("due_at")
            .where("subscriber_kind", "=", "user")
            .where("subscriber_id", "=", id)
            .executeTakeFirst()
        )?.due_at;
      // Monday 09:00, his default, first in UTC, then in Kiritimati (UTC+14).
      await expect.poll(dueAt).toBe(nextDigestDue(new Date(), "UTC", 1, 9).toISOString());
      const zone = await editor.request("/api/auth/me", json("PATCH", { time_zone: "Pacific/Kiritimati" }));
      expect(zone.status, zone.text).toBe(200);
      await expect.poll(dueAt).toBe(nextDigestDue(new Date(), "Pacific/Kiritimati", 1, 9).toISOString());
    });
  });

  describe("a channel's subscriptions (admins)", () => {
    it("404 for an unknown channel; an existing one takes any topic; a non-admin is refused", async () => {
      const unknown = await admin.request("/api/admin/notifications/channels/nope/subscriptions");
      expect(unknown.status, unknown.text).toBe(404);
      const now = new Date().toISOString();
      await store.db
        .insertInto("notification_channels")
        .values({
          id: "team",
          kind: "slack",
          name: "Team",
          target_sealed: "x",
          target_hint: "hooks.slack.com",
          created_at: now,
          updated_at: now,
        })
        .execute();
      const saved = await admin.request(
        "/api/admin/notifications/channels/team/subscriptions",
        json("PUT", { subscriptions: [{ topic: "upstream.key_rejected" }, { topic: "purchase.revoked" }] }),
      );
      expect(saved.status, saved.text).toBe(200);
      expect(saved.json.data.subscriptions.map((s: { topic: string }) => s.topic)).toEqual([
        "upstream.key_rejected",
        "purchase.revoked",
      ]);
      expect((await editor.request("/api/admin/notifications/channels/team/subscriptions")).status).toBe(403);
      const audit = await admin.request("/api/admin/audit?action=notification.channel_subscriptions_update");
      expect(audit.json.data[0]).toMatchObject({ outcome: "success" });
    });
  });

  describe("what the rules wait for (admins)", () => {
    it("answers the defaults; refuses values out of range naming the fields; saves and audits", async () => {
      const before = await admin.request("/api/admin/notifications/settings");
      expect(before.json.data).toMatchObject({ results_to_last: 2, down_minutes: 5, merge_window_minutes: 2 });
      const refused = await admin.request(
        "/api/admin/notifications/settings",
        json("PUT", { results_to_last: 0, down_minutes: 5, merge_window_minutes: 61 }),
      );
      expect(refused.status, refused.text).toBe(400);
      expect(Object.keys(refused.json.error.fields).sort()).toEqual(["merge_window_minutes", "results_to_last"]);
      expect((await editor.request("/api/admin/notifications/settings")).status).toBe(403);
      // The same values again (the end-to-end test below counts on 2 results), set by an admin.
      const saved = await admin.request(
        "/api/admin/notifications/settings",
        json("PUT", { results_to_last: 2, down_minutes: 10, merge_window_minutes: 2 }),
      );
      expect(saved.status, saved.text).toBe(200);
      expect(saved.json.data).toMatchObject({ down_minutes: 10, updated_by: "admin@gatehouse.test" });
      const audit = await admin.request("/api/admin/audit?action=notification.settings_update");
      expect(audit.json.data[0]).toMatchObject({ outcome: "success" });
    });
  });

  describe("the rules in the portal", () => {
    const regenerate = async (id: number, result: "good" | "bad", minutesAgo: number) => {
      await sandbox.setResult(id, { result, generated_at: ago(minutesAgo) });
      const res = await editor.request(`/api/reports/${id}`, json("PATCH", { results: true }));
      expect(res.json.data?.result, res.text).toBe(result);
    };
    const historyLength = async (id: number) =>
      (await editor.request(`/api/reports/${id}/history`)).json.data.entries.length as number;
    /** Waits until the rules have read every result recorded (their cursor has reached the newest row). */
    const rulesCaughtUp = async () => {
      await expect
        .poll(async () => {
          const newest = await store.db
            .selectFrom("report_results")
            .select("id")
            .orderBy("id", "desc")
            .executeTakeFirst();
          const cursor = await store.db
            .selectFrom("notification_conditions")
            .select("state")
            .where("key", "=", "cursor:report_results")
            .executeTakeFirst();
          return Number(cursor?.state ?? -1) >= Number(newest?.id ?? 0);
        })
        .toBe(true);
    };
    // The rules' deliveries: each person's weekly digest is due from his day and hour until the week ends, so the
    // tick may write digests too (dropped here: no mail server), whatever the day the test runs.
    const deliveries = () =>
      store.db
        .selectFrom("notification_deliveries")
        .select(["recipient_id", "topic", "status", "messages"])
        .where("topic", "!=", "digest")
        .execute();

    it("a report regenerated twice with a worse result: one held delivery for the person subscribed; flapping: none", async () => {
      // Where the lasting report stands first: good, twice (whatever the sandbox's seed said before).
      await regenerate(LASTING, "good", 60);
      await regenerate(LASTING, "good", 50);
      const project = (await editor.request(`/api/reports/${LASTING}`)).json.data.project as string;
      const me = (await editor.request("/api/auth/me")).json.data.user.id as string;
      const saved = await editor.request(
        "/api/notifications/subscriptions",
        json("PUT", {
          subscriptions: [{ topic: "report.regressed", project, rule: "any" }, { topic: "report.regressed" }],
        }),
      );
      expect(saved.status, saved.text).toBe(200);

      await regenerate(FLAPPING, "good", 50);
      await regenerate(FLAPPING, "bad", 40);
      await regenerate(FLAPPING, "good", 30);
      await regenerate(LASTING, "bad", 40);
      await expect.poll(() => historyLength(FLAPPING)).toBe(3);
      await expect.poll(() => historyLength(LASTING)).toBe(3);
      await rulesCaughtUp();
      expect(await deliveries()).toEqual([]);

      await regenerate(LASTING, "bad", 30);
      await expect.poll(async () => (await deliveries()).length).toBe(1);
      const [delivery] = await deliveries();
      expect(delivery).toMatchObject({ recipient_id: me, topic: "report.regressed", status: "held" });
      expect(JSON.parse(delivery!.messages)).toEqual([
        expect.objectContaining({ topic: "report.regressed", link: `/reports/${LASTING}`, tone: "bad" }),
      ]);
      await rulesCaughtUp();
      expect(await deliveries()).toHaveLength(1);
    });
  });
});
