// The one mail server (issue 35): the only module that writes notification_smtp, and the one that sends mail,
// with nodemailer. Its password is sealed at rest and never answered ("password_set"). Unlike a webhook's, its host
// may be private or loopback: it is set by an admin, and a mail relay is usually an internal one (Postfix on this
// machine, the company's relay); it must resolve, and the connection goes to the address that was checked, the TLS
// name staying the host's.
import "server-only";

import { isIP } from "node:net";

import nodemailer from "nodemailer";

import type { SmtpBody, SmtpOutput } from "@/lib/contract/notifications";
import { isOneOf, NOTIFICATION_SMTP_SECURITY } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import { sealer } from "@/lib/seal";
import { resolveTarget } from "@/lib/webhooks/target";

import { NotificationError } from "./channels";

const ID = "smtp";
const passwordSealer = sealer("gatehouse notification smtp password seal");
/** Each step of talking to the mail server (connecting, its greeting, each answer) has this long. */
const SMTP_TIMEOUT_MS = 10_000;

export interface MailServer {
  host: string;
  port: number;
  security: "starttls" | "tls";
  username: string | null;
  password: string | null;
  fromAddress: string;
}

export async function smtpOutput(db: Db): Promise<SmtpOutput> {
  const row = await db.selectFrom("notification_smtp").selectAll().where("id", "=", ID).executeTakeFirst();
  if (!row)
    return {
      configured: false,
      host: null,
      port: null,
      security: null,
      username: null,
      password_set: false,
      from_address: null,
      set_at: null,
    };
  return {
    configured: true,
    host: row.host,
    port: Number(row.port),
    security: isOneOf(NOTIFICATION_SMTP_SECURITY, row.security) ? row.security : "starttls",
    username: row.username,
    password_set: row.password_sealed !== null,
    from_address: row.from_address,
    set_at: row.set_at,
  };
}

export async function smtpIsSet(db: Db): Promise<boolean> {
  return (await db.selectFrom("notification_smtp").select("id").where("id", "=", ID).executeTakeFirst()) !== undefined;
}

/** Resolves the host (private and loopback addresses allowed: see above): the address to connect to. */
async function checkHost(host: string, port: number): Promise<string> {
  const checked = await resolveTarget(
    `https://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}/`,
    { allowPrivate: true },
  );
  if (!checked.ok)
    throw new NotificationError("invalid", `host ${checked.reason.replace("webhooks go", "mail goes")}`, "host");
  return checked.target.address;
}

export async function setSmtp(
  db: Db,
  body: SmtpBody,
  rules: { sealKey: string },
  setBy: string | null,
  now = new Date(),
): Promise<SmtpOutput> {
  await checkHost(body.host, body.port);
  const current = await db.selectFrom("notification_smtp").selectAll().where("id", "=", ID).executeTakeFirst();
  const password_sealed =
    body.password === undefined
      ? (current?.password_sealed ?? null)
      : body.password === null || body.password === ""
        ? null
        : passwordSealer.seal(body.password, rules.sealKey);
  const values = {
    host: body.host,
    port: body.port,
    security: body.security,
    username: body.username || null,
    password_sealed,
    from_address: body.from_address,
    set_at: now.toISOString(),
    set_by: setBy,
  };
  await db
    .insertInto("notification_smtp")
    .values({ id: ID, ...values })
    .onConflict((conflict) => conflict.column("id").doUpdateSet(values))
    .execute();
  return smtpOutput(db);
}

export async function removeSmtp(db: Db): Promise<void> {
  await db.deleteFrom("notification_smtp").where("id", "=", ID).execute();
}

/** The mail server as sending needs it, its password opened; null when none is set. */
export async function mailServer(db: Db, sealKey: string): Promise<MailServer | null> {
  const row = await db.selectFrom("notification_smtp").selectAll().where("id", "=", ID).executeTakeFirst();
  if (!row) return null;
  return {
    host: row.host,
    port: Number(row.port),
    security: row.security === "tls" ? "tls" : "starttls",
    username: row.username,
    password: row.password_sealed === null ? null : passwordSealer.open(row.password_sealed, sealKey),
    fromAddress: row.from_address,
  };
}

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** RFC 2369 / 8058: the unsubscribe address POSTed to in one click. */
  listUnsubscribe?: string;
}

/** Sends one mail; whether the server took it, and why not in a sentence (never the password). */
export async function sendMail(server: MailServer, mail: Mail): Promise<{ ok: true } | { ok: false; error: string }> {
  let address: string;
  try {
    address = await checkHost(server.host, server.port);
  } catch (error) {
    return { ok: false, error: `not sent: the mail server's ${(error as Error).message}` };
  }
  if (server.username && server.password === null)
    return {
      ok: false,
      error: "not sent: the mail server's password cannot be read (the portal's data key changed); set it again",
    };
  const auth = server.username && server.password !== null ? { user: server.username, pass: server.password } : null;
  const transport = nodemailer.createTransport({
    host: address,
    port: server.port,
    secure: server.security === "tls",
    // A user name and password never cross in clear: with them, STARTTLS is required (a server that does not offer
    // it is refused); without them (a relay that takes mail from this host), plain is allowed, upgraded when offered.
    requireTLS: server.security === "starttls" && auth !== null,
    // The certificate is checked against the host's name, not the address connected to (an address as host is
    // checked as it is: TLS sends no address as a server name).
    tls: isIP(server.host) ? {} : { servername: server.host },
    name: "gatehouse",
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    ...(auth && { auth }),
  });
  try {
    await transport.sendMail({
      from: server.fromAddress,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(mail.headers && { headers: mail.headers }),
      ...(mail.listUnsubscribe && {
        list: { unsubscribe: { url: mail.listUnsubscribe, comment: "Unsubscribe" } },
        headers: { ...mail.headers, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      }),
    });
    return { ok: true };
  } catch (error) {
    return {
      ok: false,
      error: `not sent: ${smtpError(error as NodeJS.ErrnoException & { responseCode?: number; response?: string })}`,
    };
  } finally {
    transport.close();
  }
}

function smtpError(error: NodeJS.ErrnoException & { responseCode?: number; response?: string }): string {
  if (error.responseCode)
    return `the mail server answered ${error.responseCode}${error.response ? ` (${error.response.slice(0, 200).replace(/\s+/g, " ")})` : ""}`;
  switch (error.code) {
    case "ECONNREFUSED":
      return "the mail server refused the connection";
    case "ETIMEDOUT":
      return "the mail server did not answer in time";
    case "EAUTH":
      return "the mail server refused the user name or password";
    case "ESOCKET":
    case "ECONNECTION":
      return `the connection to the mail server failed${error.message ? ` (${error.message.slice(0, 160)})` : ""}`;
    default:
      return error.code ? `the mail server could not be used (${error.code})` : "the mail server could not be used";
  }
}
