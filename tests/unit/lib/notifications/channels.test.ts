import { describe, expect, it } from "vitest";

import {
  channelOutput,
  channelToSend,
  checkTarget,
  createChannel,
  deleteChannel,
  isNotificationError,
  listChannels,
  parseAddresses,
  updateChannel,
} from "@/lib/notifications/channels";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const PUBLIC = { allowPrivate: false };
const settings = { allowPrivate: true, sealKey: "a root key of at least thirty-two characters", publicOrigin: null };
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (isNotificationError(error) ? { field: error.field, message: error.message } : error),
  );

describe("checkTarget", () => {
  it("takes Slack's and Teams' own hosts only, on public addresses", async () => {
    expect(await refusal(checkTarget("slack", "https://example.com/hook", PUBLIC))).toMatchObject({
      field: "target",
      message: /Slack incoming webhook's URL/,
    });
    expect(await refusal(checkTarget("teams", "https://hooks.slack.com/services/x", PUBLIC))).toMatchObject({
      message: /Microsoft Teams webhook's URL/,
    });
    expect(await refusal(checkTarget("slack", "http://hooks.slack.com/services/x", PUBLIC))).toMatchObject({
      message: /must start with https/,
    });
  });

  it("keeps an address list tidy and hints a webhook by its host and last 4 characters", async () => {
    expect(parseAddresses("A@Example.com; b@example.com a@example.com")).toEqual({
      ok: true,
      addresses: ["a@example.com", "b@example.com"],
    });
    expect(parseAddresses("a@example.com, nope")).toMatchObject({ ok: false, reason: /nope/ });
    expect(await checkTarget("slack", "http://127.0.0.1:9/hooks/secret1234", { allowPrivate: true })).toEqual({
      stored: "http://127.0.0.1:9/hooks/secret1234",
      hint: "127.0.0.1:9 …1234",
    });
  });
});

describe("the channels' store", () => {
  const store = useStore(sqliteBackend);

  it("seals a webhook's URL, changes, disables and removes a channel", async () => {
    const { db } = store();
    const channel = await createChannel(
      db,
      { kind: "slack", name: "#perf", target: "http://127.0.0.1:9/hooks/secret1234", time_zone: "Asia/Tokyo" },
      settings,
      "admin@example.com",
    );
    const row = await db.selectFrom("notification_channels").selectAll().executeTakeFirstOrThrow();
    expect(row.target_sealed).not.toContain("secret1234");
    expect((await channelToSend(db, channel.id, settings.sealKey))?.target).toBe("http://127.0.0.1:9/hooks/secret1234");
    const output = channelOutput(channel, false);
    expect(output).toMatchObject({
      time_zone: "Asia/Tokyo",
      digest_day: 1,
      digest_hour: 9,
      enabled: true,
      sendable: null,
    });
    expect(JSON.stringify(output)).not.toContain("secret1234");

    const off = await updateChannel(db, channel.id, { enabled: false, name: "#web-perf" }, settings);
    expect(off).toMatchObject({ enabled: false, name: "#web-perf" });
    expect(channelOutput(off, true).sendable).toMatch(/disabled/);

    const mail = await createChannel(db, { kind: "email", name: "Ops", target: "ops@example.com" }, settings, null);
    expect(channelOutput(mail, false).sendable).toMatch(/No mail server/);
    expect((await listChannels(db)).map((each) => each.name)).toEqual(["#web-perf", "Ops"]);
    await deleteChannel(db, channel.id);
    expect((await listChannels(db)).map((each) => each.name)).toEqual(["Ops"]);
    expect(await refusal(deleteChannel(db, channel.id))).toMatchObject({
      field: null,
      message: /no notification channel/,
    });
  });
});
