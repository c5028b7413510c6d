// The mail server's row and its sending, against an SMTP server (smtp-server) on loopback with no webhook rule
// lifted: a relay on this machine or the company's network is where mail usually goes, so a private or loopback
// host is taken (unlike a webhook's); a host that does not resolve is refused naming the field; the password is
// sealed, never answered, kept when left out.
import type { AddressInfo } from "node:net";

import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { isNotificationError } from "@/lib/notifications/channels";
import { mailServer, sendMail, setSmtp, smtpOutput } from "@/lib/notifications/smtp";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const SEAL = { sealKey: "a root key of at least thirty-two characters" };
const mails: ParsedMail[] = [];
const relay = new SMTPServer({
  disabledCommands: ["STARTTLS", "AUTH"],
  authOptional: true,
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((mail) => void mails.push(mail))
      .then(() => callback(), callback);
  },
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  port = (relay.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => relay.close(() => resolve())));

describe("the mail server", () => {
  const store = useStore(sqliteBackend);
  const body = (host: string) => ({
    host,
    port,
    security: "starttls" as const,
    username: null,
    password: undefined,
    from_address: "gatehouse@example.com",
  });

  it("takes a relay on loopback, with no webhook rule lifted, and sends through it", async () => {
    const { db } = store();
    const saved = await setSmtp(db, body("127.0.0.1"), SEAL, "admin@example.com");
    expect(saved).toMatchObject({ configured: true, host: "127.0.0.1", password_set: false });
    const server = await mailServer(db, SEAL.sealKey);
    expect(server).not.toBeNull();
    const sent = await sendMail(server!, {
      to: ["team@example.com"],
      subject: "Hello",
      text: "A test.",
      html: "<p>A test.</p>",
    });
    expect(sent).toEqual({ ok: true });
    expect(mails.at(-1)).toMatchObject({ subject: "Hello" });
    expect(mails.at(-1)?.text?.trim()).toBe("A test.");
  });

  it("refuses a host that does not resolve, naming the field", async () => {
    const { db } = store();
    const refused = await setSmtp(db, body("no-such-host.invalid"), SEAL, null).catch((error: unknown) => error);
    expect(isNotificationError(refused) && refused.field).toBe("host");
    expect((await smtpOutput(db)).configured).toBe(false);
  });
});
