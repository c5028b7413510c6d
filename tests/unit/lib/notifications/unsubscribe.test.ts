import { describe, expect, it } from "vitest";

import { openUnsubscribeToken, unsubscribe, unsubscribeLinks, unsubscribeToken } from "@/lib/notifications/unsubscribe";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const KEY = "a root key of at least thirty-two characters";

describe("the unsubscribe token", () => {
  it("opens to its person and scope, and the links carry it", () => {
    const token = unsubscribeToken("user-1", "report.regressed", KEY);
    expect(openUnsubscribeToken(token, KEY)).toEqual({ ok: true, userId: "user-1", scope: "report.regressed" });
    const links = unsubscribeLinks(token, "https://portal.example.com");
    expect(links.post).toBe(
      `https://portal.example.com/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`,
    );
    expect(links.page).toBe(`https://portal.example.com/notifications/unsubscribe?token=${encodeURIComponent(token)}`);
  });

  it("refuses one altered, made under another key, or stale, with a sentence", () => {
    const token = unsubscribeToken("user-1", "all", KEY, new Date("2026-01-01T00:00:00Z"));
    const altered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect(openUnsubscribeToken(altered, KEY)).toMatchObject({ ok: false, reason: /not valid/ });
    expect(openUnsubscribeToken(token, `${KEY}!`)).toMatchObject({ ok: false, reason: /not valid/ });
    expect(openUnsubscribeToken(token, KEY, new Date("2026-06-01T00:00:00Z"))).toMatchObject({
      ok: false,
      reason: /more than 90 days old/,
    });
  });
});

describe("unsubscribe", () => {
  const store = useStore(sqliteBackend);

  it("removes the person's subscriptions to the topic, or switches all his e-mail off", async () => {
    const { db } = store();
    const at = new Date().toISOString();
    const subscribe = (id: string, subscriber: string, topic: string) =>
      db
        .insertInto("notification_subscriptions")
        .values({ id, subscriber_kind: "user", subscriber_id: subscriber, topic, created_at: at })
        .execute();
    await subscribe("a", "user-1", "report.regressed");
    await subscribe("b", "user-1", "report.recovered");
    await subscribe("c", "user-2", "report.regressed");
    expect(await unsubscribe(db, "user-1", "report.regressed")).toMatch(/unsubscribed from report.regressed/);
    const left = await db.selectFrom("notification_subscriptions").select("id").orderBy("id").execute();
    expect(left.map((row) => row.id)).toEqual(["b", "c"]);

    expect(await unsubscribe(db, "user-1", "digest")).toMatch(/no more weekly digest/);
    expect(await db.selectFrom("notification_preferences").selectAll().execute()).toMatchObject([
      { user_id: "user-1", email_enabled: 1, digest_enabled: 0 },
    ]);
    expect(await unsubscribe(db, "user-1", "all")).toMatch(/no more e-mail/);
    expect(await unsubscribe(db, "user-1", "all")).toMatch(/no more e-mail/);
    const preferences = await db.selectFrom("notification_preferences").selectAll().execute();
    expect(preferences).toMatchObject([{ user_id: "user-1", email_enabled: 0, digest_enabled: 0 }]);
  });
});
