// Notification channels and the mail server over real HTTP (next start, its own job system and store, on SQLite and
// PostgreSQL), sending to real parts started here on loopback: an HTTP receiver standing in for Slack's and Teams'
// incoming webhooks (the payloads checked against their documented shapes), and an SMTP server (smtp-server) whose
// every mail is parsed (mailparser): headers, text and HTML parts, the one-click unsubscribe link, which works once
// POSTed and changes the store, and an altered one is refused. Validation, permissions, secrets in no answer, audit
// row or log line; a receiver that fails is retried, and the delivery log shows both attempts. End to end, an event
// (the item API rejecting its key, then taking it again) reaches a subscribed channel through the rules, the held
// row, the delivery sweep and the Slack sender.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { simpleParser, type ParsedMail } from "mailparser";
import { generate } from "selfsigned";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";

import { injectIntoServer } from "@/tests/support/processes";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";
import { CANARY } from "@/tests/support/canary";
import { until } from "@/tests/support/until";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const ORIGIN = "http://portal.example.test";
/** The secret part of the webhook URLs and the mail server's password: in no answer, audit row or log line. */
const SLACK_SECRET = "T0SLACK/B0HOOK/slacksecretpath4242";
const TEAMS_SECRET = "workflows/teamssecretpath9191";
const SMTP_PASSWORD = "smtp password 77 never shown";

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

interface MailServer {
  port: number;
  mails: ParsedMail[];
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1, made for this file; the portal trusts it by NODE_EXTRA_CA_CERTS. */
let certificate: Promise<{ dir: string; file: string; key: string; cert: string }> | undefined;
const makeCertificate = () =>
  (certificate ??= (async () => {
    const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
      keyType: "ec",
      curve: "P-256",
      notAfterDate: new Date(Date.now() + 86_400_000),
      extensions: [
        { name: "basicConstraints", cA: true },
        { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] },
      ],
    });
    const dir = await mkdtemp(path.join(tmpdir(), "gatehouse-smtp-tls-"));
    const file = path.join(dir, "cert.pem");
    await writeFile(file, pems.cert);
    return { dir, file, key: pems.private, cert: pems.cert };
  })());
afterAll(async () => {
  if (certificate) await rm((await certificate).dir, { recursive: true, force: true });
});

/**
 * An SMTP server on a free loopback port that parses every mail it is given: `starttls`, offering STARTTLS with the
 * file's certificate and signing in one user once it is spoken; `tls`, the same with TLS from the first byte;
 * `plain`, a relay without TLS that asks no sign-in (and would take a password in clear).
 */
async function startMailServer(mode: "starttls" | "tls" | "plain"): Promise<MailServer> {
  const mails: ParsedMail[] = [];
  const { key, cert } = await makeCertificate();
  const server = new SMTPServer({
    ...(mode === "plain"
      ? { disabledCommands: ["STARTTLS"], authOptional: true, allowInsecureAuth: true }
      : { secure: mode === "tls", key, cert }),
    authMethods: ["PLAIN", "LOGIN"],
    onAuth(auth, _session, callback) {
      if (auth.username === "gatehouse" && auth.password === SMTP_PASSWORD) callback(null, { user: "gatehouse" });
      else callback(new Error("Invalid user name or password"));
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.each(bothServerStores())("on $name", (serverStore) => {
  const {
    sandbox,
    gateway,
    clients: { admin, editor },
  } = setUpGateway({
    store: serverStore,
    signIn: ["admin", "editor"],
    env: async () => ({
      WEBHOOK_ALLOW_PRIVATE: "1",
      PUBLIC_ORIGIN: ORIGIN,
      NODE_EXTRA_CA_CERTS: (await makeCertificate()).file,
      ...injectIntoServer({ "notification-timings": { speedup: 10_000, sweepMs: 100 } }),
    }),
  });

  let store: Store;
  let receiver: WebhookReceiver;
  let smtp: MailServer;
  const channels: Record<string, string> = {};
  const answers: string[] = [];
  const call = async (path: string, init?: RequestInit, client = admin) => {
    const res = await client.request(path, init);
    answers.push(res.text);
    return res;
  };

  beforeAll(async () => {
    store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
    receiver = await startWebhookReceiver({ verify: false });
    smtp = await startMailServer("starttls");
  });
  afterAll(async () => {
    await store?.close();
    await receiver?.close();
    await smtp?.close();
  });

  const slackUrl = () => `${receiver.url}/${SLACK_SECRET}`;
  const teamsUrl = () => `${receiver.url}/${TEAMS_SECRET}`;

  it("refuses what is not a channel, naming the field, and is for admins only", async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ kind: "pager", name: "x", target: "https://hooks.slack.com/x" }, "kind", /one of/],
      [{ kind: "slack", name: "", target: slackUrl() }, "name", /name is required/],
      [{ kind: "slack", name: "x", target: "not a url" }, "target", /Slack incoming webhook's URL/],
      [{ kind: "slack", name: "x", target: "ftp://127.0.0.1/x" }, "target", /must start with http/],
      [{ kind: "email", name: "x", target: "team@example.com, nobody" }, "target", /nobody, which is not an e-mail/],
      [{ kind: "slack", name: "x", target: slackUrl(), time_zone: "Mars/Olympus" }, "time_zone", /./],
      [{ kind: "slack", name: "x", target: slackUrl(), digest_hour: 24 }, "digest_hour", /0 to 23/],
      [{ kind: "slack", name: "x", target: slackUrl(), url: "x" }, "url", /unknown field/i],
    ];
    for (const [body, field, message] of cases) {
      const res = await call("/api/admin/notifications/channels", json("POST", body));
      expect(res.status, res.text).toBe(400);
      expect(Object.entries(res.json.error.fields ?? {}).find(([name]) => name.startsWith(field))?.[1]).toMatch(
        message,
      );
    }
    for (const [path, init] of [
      ["/api/admin/notifications/channels", undefined],
      ["/api/admin/notifications/channels", json("POST", { kind: "slack", name: "x", target: slackUrl() })],
      ["/api/admin/notifications/smtp", undefined],
    ] as const) {
      const res = await call(path, init, editor);
      expect(res.status, path).toBe(403);
    }
  });

  it("adds Slack, Teams and e-mail channels, never answering a webhook URL again", async () => {
    for (const [kind, target, name] of [
      ["slack", slackUrl(), "#web-perf"],
      ["teams", teamsUrl(), "Web team"],
      ["email", "Team@Example.com, ops@example.com", "Ops list"],
    ] as const) {
      const res = await call(
        "/api/admin/notifications/channels",
        json("POST", { kind, name, target, time_zone: "Europe/Berlin", digest_day: 5, digest_hour: 8 }),
      );
      expect(res.status, res.text).toBe(201);
      expect(res.json.data).toMatchObject({ kind, name, enabled: true, time_zone: "Europe/Berlin", digest_day: 5 });
      channels[kind] = res.json.data.id;
    }
    const list = await call("/api/admin/notifications/channels");
    expect(list.json.data.map((c: { kind: string }) => c.kind)).toEqual(["slack", "teams", "email"]);
    expect(list.json.data[0].target_hint).toMatch(/^127\.0\.0\.1:\d+ …4242$/);
    expect(list.json.data[2].target_hint).toBe("team@example.com, ops@example.com");
    // No mail server yet: the e-mail channel says it cannot be sent to.
    expect(list.json.data[2].sendable).toMatch(/No mail server is set/);
    expect(list.json.data[0].sendable).toBeNull();
    const audit = await call("/api/admin/audit?action=notification.channel_create");
    expect(audit.json.data[0]).toMatchObject({
      outcome: "success",
      target: { type: "notification_channel", label: "Ops list" },
    });
  });

  it("sends Slack a Block Kit message and Teams an Adaptive Card, in the shapes they document", async () => {
    const before = receiver.received.length;
    const slack = await call(`/api/admin/notifications/channels/${channels.slack}/test`, { method: "POST" });
    expect(slack.status, slack.text).toBe(200);
    expect(slack.json.data).toMatchObject({ sent: true, error: null, delivery: { status: "sent", attempts: 1 } });
    const teams = await call(`/api/admin/notifications/channels/${channels.teams}/test`, { method: "POST" });
    expect(teams.json.data).toMatchObject({ sent: true, error: null });
    const [slackBody, teamsBody] = receiver.received.slice(before).map((delivery) => JSON.parse(delivery.body));

    expect(slackBody.text).toBe("A test message from Gatehouse");
    expect(slackBody.blocks.map((block: { type: string }) => block.type)).toEqual([
      "header",
      "section",
      "context",
      "actions",
    ]);
    expect(slackBody.blocks[0].text).toEqual({
      type: "plain_text",
      text: "A test message from Gatehouse",
      emoji: true,
    });
    expect(slackBody.blocks[1].text.type).toBe("mrkdwn");
    expect(slackBody.blocks[3].elements[0]).toMatchObject({ type: "button", url: `${ORIGIN}/admin/notifications` });

    expect(teamsBody.type).toBe("message");
    expect(teamsBody.attachments).toHaveLength(1);
    expect(teamsBody.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
    const card = teamsBody.attachments[0].content;
    expect(card).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    expect(card.$schema).toBe("http://adaptivecards.io/schemas/adaptive-card.json");
    expect(card.body.every((element: { type: string }) => element.type === "TextBlock")).toBe(true);
    expect(card.actions).toEqual([
      { type: "Action.OpenUrl", title: "Open in Gatehouse", url: `${ORIGIN}/admin/notifications` },
    ]);
  });

  it("retries a receiver that fails, and the channel's log shows both attempts", async () => {
    let failed = false;
    receiver.answer = () => (failed ? 200 : ((failed = true), 500));
    const res = await call(`/api/admin/notifications/channels/${channels.slack}/test`, { method: "POST" });
    expect(res.json.data.sent).toBe(false);
    expect(res.json.data.error).toMatch(/^not sent: the Slack webhook answered 500/);
    expect(res.json.data.error).not.toContain(SLACK_SECRET);
    const id = res.json.data.delivery.id;
    const log = await until(async () => {
      const deliveries = await call(`/api/admin/notifications/channels/${channels.slack}/deliveries`);
      const delivery = deliveries.json.data.find((d: { id: string }) => d.id === id);
      return delivery?.status === "sent" ? delivery : null;
    }, "the retried test message to be sent");
    expect(log).toMatchObject({ attempts: 2, title: "A test message from Gatehouse" });
    expect(log.log.map((attempt: { ok: boolean }) => attempt.ok)).toEqual([true, false]);
    expect(log.log[1].error).toMatch(/answered 500/);
    receiver.answer = () => 200;
  });

  it("sets the mail server, its password sealed and never answered", async () => {
    const none = await call("/api/admin/notifications/smtp");
    expect(none.json.data).toMatchObject({ configured: false, password_set: false });
    const wrong = await call(
      "/api/admin/notifications/smtp",
      json("PUT", { host: "127.0.0.1", port: 0, security: "ssl", from_address: "nobody" }),
    );
    expect(wrong.status).toBe(400);
    expect(Object.keys(wrong.json.error.fields).sort()).toEqual(["from_address", "port", "security"]);
    const set = await call(
      "/api/admin/notifications/smtp",
      json("PUT", {
        host: "127.0.0.1",
        port: smtp.port,
        security: "starttls",
        username: "gatehouse",
        password: SMTP_PASSWORD,
        from_address: "alerts@gatehouse.test",
      }),
    );
    expect(set.status, set.text).toBe(200);
    expect(set.json.data).toMatchObject({ configured: true, port: smtp.port, password_set: true });
    const row = await store.db.selectFrom("notification_smtp").selectAll().executeTakeFirstOrThrow();
    expect(row.password_sealed).not.toContain(SMTP_PASSWORD);
    const list = await call("/api/admin/notifications/channels");
    expect(list.json.data[2].sendable).toBeNull();
  });

  it("sends the mail server's test mail and the e-mail channel's, with text and HTML parts", async () => {
    const test = await call("/api/admin/notifications/smtp/test", json("POST", { to: "admin@gatehouse.test" }));
    expect(test.json.data, test.text).toMatchObject({ sent: true, error: null });
    const channel = await call(`/api/admin/notifications/channels/${channels.email}/test`, { method: "POST" });
    expect(channel.json.data, channel.text).toMatchObject({ sent: true });
    const [first, second] = await until(() => smtp.mails.length >= 2 && smtp.mails, "two mails");
    expect(first!.subject).toBe("A test message from Gatehouse");
    expect(first!.from?.text).toBe("alerts@gatehouse.test");
    expect(first!.to).toMatchObject({ text: "admin@gatehouse.test" });
    expect(first!.text).toContain("The address admin@gatehouse.test receives Gatehouse's notifications");
    expect(first!.html).toContain(`href="${ORIGIN}/admin/notifications"`);
    expect(first!.html).not.toMatch(/<img|<style/);
    // A team list's mail has no unsubscribe: its admins set it.
    expect(second!.to).toMatchObject({ text: "team@example.com, ops@example.com" });
    expect(second!.headerLines.some((each) => each.key.startsWith("list-"))).toBe(false);
  });

  it("sends over TLS and to a plain relay, but never a password in clear; says why not in a sentence", async () => {
    const tlsServer = await startMailServer("tls");
    const relay = await startMailServer("plain");
    const setSmtp = async (port: number, security: string, username: string | null) => {
      const res = await call(
        "/api/admin/notifications/smtp",
        json("PUT", { host: "127.0.0.1", port, security, username, from_address: "alerts@gatehouse.test" }),
      );
      expect(res.status, res.text).toBe(200);
      // The password is kept when none is given.
      expect(res.json.data.password_set).toBe(true);
    };
    const testMail = async (to: string) =>
      (await call("/api/admin/notifications/smtp/test", json("POST", { to }))).json.data;
    try {
      await setSmtp(tlsServer.port, "tls", "gatehouse");
      expect(await testMail("tls@gatehouse.test")).toMatchObject({ sent: true, error: null });
      const [mail] = await until(() => tlsServer.mails.length > 0 && tlsServer.mails, "the mail over TLS");
      expect(mail!.to).toMatchObject({ text: "tls@gatehouse.test" });

      // A relay without TLS takes mail without a sign-in…
      await setSmtp(relay.port, "starttls", null);
      expect(await testMail("relay@gatehouse.test")).toMatchObject({ sent: true });
      await until(() => relay.mails.length > 0, "the mail at the relay");
      // …but the user and password are not sent to it in clear.
      await setSmtp(relay.port, "starttls", "gatehouse");
      const refused = await testMail("x@gatehouse.test");
      expect(refused.sent).toBe(false);
      expect(refused.error).toMatch(/^not sent: /);
      // TLS spoken to a server that speaks it only after STARTTLS.
      await setSmtp(smtp.port, "tls", "gatehouse");
      expect((await testMail("x@gatehouse.test")).error).toMatch(/^not sent: /);
      expect(relay.mails).toHaveLength(1);
    } finally {
      await tlsServer.close();
      await relay.close();
      await setSmtp(smtp.port, "starttls", "gatehouse");
    }
  });

  it("mails a person with a one-click unsubscribe that works once POSTed, and refuses an altered token", async () => {
    await store.db
      .insertInto("notification_subscriptions")
      .values({
        id: crypto.randomUUID(),
        subscriber_kind: "user",
        subscriber_id: editor.user.id,
        topic: "report.regressed",
        created_at: new Date().toISOString(),
      })
      .execute();
    const at = new Date().toISOString();
    await store.db
      .insertInto("notification_deliveries")
      .values({
        id: crypto.randomUUID(),
        recipient_kind: "user",
        recipient_id: editor.user.id,
        channel_kind: "email",
        topic: "report.regressed",
        merge_key: null,
        messages: JSON.stringify([
          {
            topic: "report.regressed",
            title: "acme.io/<pricing> went from good to bad",
            text: "Its result dropped & stayed so for 2 results.",
            since: at,
            link: "/reports/12",
            tone: "bad",
            facts: [{ label: "Project", value: "acme.io" }],
          },
        ]),
        status: "held",
        attempts: 0,
        not_before: at,
        created_at: at,
        last_attempt_at: null,
        last_error: null,
        sent_at: null,
      })
      .execute();
    const before = smtp.mails.length;
    const mail = (await until(() => smtp.mails.length > before && smtp.mails, "the person's mail"))[before]!;
    expect(mail.subject).toBe("acme.io/<pricing> went from good to bad");
    expect(mail.to).toMatchObject({ text: "editor@gatehouse.test" });
    expect(mail.html).toContain("acme.io/&lt;pricing&gt; went from good to bad");
    expect(mail.html).toContain("dropped &amp; stayed");
    expect(mail.text).toContain(`Open: ${ORIGIN}/reports/12`);
    // The header lines as they came (mailparser folds List-* headers into one object).
    const line = (key: string) => mail.headerLines.find((each) => each.key === key)?.line.replace(/\r?\n[ \t]+/g, " ");
    expect(line("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    const unsubscribeUrl = /^List-Unsubscribe:\s*<([^>]+)>/.exec(line("list-unsubscribe") ?? "")?.[1] ?? "";
    expect(unsubscribeUrl).toMatch(new RegExp(`^${ORIGIN}/api/notifications/unsubscribe\\?token=`));
    expect(mail.html).toContain(`${ORIGIN}/notifications/unsubscribe?token=`);
    const path = unsubscribeUrl.slice(ORIGIN.length);

    const altered = path.replace(/.(?=.{10}$)/, (c) => (c === "A" ? "B" : "A"));
    const refused = await gateway.request(altered, { method: "POST", body: "List-Unsubscribe=One-Click" });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/not valid/);

    // As a mail client sends it: a form body, no session, no X-CSRF.
    const res = await gateway.request(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.unsubscribed).toBe("report.regressed");
    const left = await store.db
      .selectFrom("notification_subscriptions")
      .select("id")
      .where("subscriber_id", "=", editor.user.id)
      .execute();
    expect(left).toEqual([]);
    const page = await gateway.request(path.replace("/api/notifications/", "/notifications/"));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Stop the e-mail about report.regressed?");
    const audit = await call("/api/admin/audit?action=notification.unsubscribe");
    expect(audit.json.data[0]).toMatchObject({ user_email: "editor@gatehouse.test", outcome: "success" });
  });

  it("tells a subscribed channel, end to end, that the item API rejected its key, and once that it works again", async () => {
    // The rules (the events' sink), the held row, the delivery sweep and the Slack sender, in the running portal.
    const settings = await call(
      "/api/admin/notifications/settings",
      json("PUT", { results_to_last: 2, down_minutes: 5, merge_window_minutes: 0 }),
    );
    expect(settings.status, settings.text).toBe(200);
    const subscribed = await call(
      `/api/admin/notifications/channels/${channels.slack}/subscriptions`,
      json("PUT", { subscriptions: [{ topic: "upstream.key_rejected" }, { topic: "upstream.key_restored" }] }),
    );
    expect(subscribed.status, subscribed.text).toBe(200);
    const slackTexts = () =>
      receiver.received
        .map((delivery) => JSON.parse(delivery.body) as { text?: string })
        .map((body) => body.text ?? "");
    const before = receiver.received.length;

    await sandbox.setKey("items", CANARY.items, false);
    try {
      expect((await call("/api/account")).status).not.toBe(200);
      await until(
        async () =>
          slackTexts()
            .slice(before)
            .some((text) => /rejected its key/.test(text)),
        "the key's rejection at the Slack receiver",
      );
    } finally {
      await sandbox.setKey("items", CANARY.items, true);
    }
    expect((await call("/api/account")).status).toBe(200);
    const restored = await until(
      async () =>
        slackTexts()
          .slice(before)
          .find((text) => /accepts its key again/.test(text)),
      "the key's restoring at the Slack receiver",
    );
    expect(restored).toMatch(/accepts its key again/);
    expect(
      slackTexts()
        .slice(before)
        .filter((text) => /rejected its key/.test(text)),
    ).toHaveLength(1);
  });

  it("drops what is sent to a disabled channel, and removes a channel with its log", async () => {
    const off = await call(`/api/admin/notifications/channels/${channels.teams}`, json("PATCH", { enabled: false }));
    expect(off.json.data.enabled).toBe(false);
    const test = await call(`/api/admin/notifications/channels/${channels.teams}/test`, { method: "POST" });
    expect(test.status).toBe(400);
    expect(test.json.error.message).toMatch(/disabled/);
    const removed = await call(`/api/admin/notifications/channels/${channels.teams}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    expect((await call(`/api/admin/notifications/channels/${channels.teams}/deliveries`)).status).toBe(404);
  });

  it("keeps the webhook URLs and the password out of every answer, audit row and log line", async () => {
    const audit = await call("/api/admin/audit?per_page=100");
    for (const text of [...answers, audit.text, ...gateway.output()]) {
      expect(text).not.toContain(SLACK_SECRET);
      expect(text).not.toContain(TEAMS_SECRET);
      expect(text).not.toContain(SMTP_PASSWORD);
    }
  });
});
