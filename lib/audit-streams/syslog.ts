// Syslog messages of the audit log: RFC 5424's format, sent over TCP (RFC 6587) or TLS (RFC 5425) in octet-counted
// frames (`MSG-LEN SP SYSLOG-MSG`), a batch per connection. No maintained npm library formats RFC 5424 and tells
// when a batch was read (the candidates are unmaintained since 2016–2020 and keep their own connections), so the
// formatter is here, small, and tested against the RFC's grammar; the transport is node:net / node:tls.
//
// A message:  <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [audit@32473 id="…" …] BOM{the row as JSON}
// - PRI: facility 13 ("log audit"); severity notice (5) for a success or a valid check, warning (4) otherwise.
// - MSGID: the row's action ("report.create"); the row's id is in the structured data: `id` is what a receiver
//   de-duplicates by (a batch may arrive twice: see sendSyslog).
// - SD-ID audit@32473: 32473 is the enterprise number RFC 5612 reserves for documentation; Gatehouse has none.
// - MSG: the row as GET /api/admin/audit shows it (the export's NDJSON line), UTF-8 with the BOM RFC 5424 asks for.
import "server-only";

import { connect as connectTcp, type Socket } from "node:net";
import { hostname as osHostname } from "node:os";
import { connect as connectTls } from "node:tls";

import type { SyslogDestination } from "@/lib/config/audit-streams";
import type { AuditRecordOutput } from "@/lib/contract/audit";

export const FACILITY_LOG_AUDIT = 13;
export const SD_ID = "audit@32473";
export const APP_NAME = "gatehouse";
/** A message longer than this (RFC 5425: a receiver SHOULD take 8192 octets) is sent without its detail and labels. */
export const MAX_MESSAGE_OCTETS = 8192;
const NILVALUE = "-";
const BOM = "\ufeff";

/** PRINTUSASCII (%d33-126) only, at most `max` characters; NILVALUE when nothing is left. */
export function printUsAscii(value: string | null | undefined, max: number): string {
  const kept = (value ?? "").replace(/[^\x21-\x7e]/g, "").slice(0, max);
  return kept === "" ? NILVALUE : kept;
}

/** An SD-NAME: PRINTUSASCII except `=`, SP, `]` and `"`, 1 to 32 characters. */
export function sdName(value: string): string {
  const kept = value.replace(/[^\x21-\x7e]|[=\]"]/g, "").slice(0, 32);
  if (kept === "") throw new Error(`"${value}" cannot be an SD-NAME`);
  return kept;
}

/** A PARAM-VALUE: UTF-8, with `"`, `\` and `]` escaped by a backslash (RFC 5424 §6.3.3). */
export function paramValue(value: string): string {
  return value.replace(/["\\\]]/g, (c) => `\\${c}`);
}

/** An SD-ELEMENT: `[ID name="value" …]`, the parameters whose value is null left out. */
export function sdElement(id: string, params: Record<string, string | number | null | undefined>): string {
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== null && entry[1] !== undefined)
    .map(([name, value]) => ` ${sdName(name)}="${paramValue(String(value))}"`);
  return `[${sdName(id)}${parts.join("")}]`;
}

const severityOf = (outcome: string): number => (outcome === "success" || outcome === "valid" ? 5 : 4);

export interface SyslogHeader {
  hostname: string;
  procId: string;
}

/** This process's HOSTNAME and PROCID. */
export const localHeader = (): SyslogHeader => ({ hostname: osHostname(), procId: String(process.pid) });

/** One audit row as an RFC 5424 message (without its frame). */
export function syslogMessage(row: AuditRecordOutput, header: SyslogHeader = localHeader()): string {
  const pri = FACILITY_LOG_AUDIT * 8 + severityOf(row.outcome);
  const head = [
    `<${pri}>1`,
    // FULL-DATE "T" FULL-TIME with at most 6 fractional digits: toISOString's is 3, in UTC ("Z").
    new Date(row.at).toISOString(),
    printUsAscii(header.hostname, 255),
    APP_NAME,
    printUsAscii(header.procId, 128),
    printUsAscii(row.action, 32),
  ].join(" ");
  const sd = sdElement(SD_ID, {
    id: row.id,
    action: row.action,
    outcome: row.outcome,
    user: row.user_id,
    target_type: row.target?.type,
    target_id: row.target?.id,
    request_id: row.request_id,
  });
  const whole = `${head} ${sd} ${BOM}${JSON.stringify(row)}`;
  if (Buffer.byteLength(whole) <= MAX_MESSAGE_OCTETS) return whole;
  // Too long for every receiver: the row without what can be long (its detail, its target's label), said so.
  const short = {
    ...row,
    detail: null,
    summary: row.summary.slice(0, 500),
    target: row.target ? { ...row.target, label: null } : null,
    truncated: true,
  };
  return `${head} ${sd} ${BOM}${JSON.stringify(short)}`;
}

/** RFC 6587's octet counting: the message's length in octets, a space, the message. */
export const frame = (message: string): string => `${Buffer.byteLength(message)} ${message}`;

/** How long a connection, a write or the receiver's closing may take. */
export const SYSLOG_TIMEOUT_MS = 10_000;

/**
 * Sends the messages over one connection and resolves once the receiver has read through them: after the last
 * frame we close our side, and a receiver closes its own only after reading everything before our FIN. Syslog over
 * TCP has no acknowledgement: this is the strongest sign it gives. Any error, or no close within the timeout, rejects,
 * and the whole batch is sent again (at least once; receivers de-duplicate by the structured data's `id`).
 */
export function sendSyslog(
  destination: SyslogDestination,
  messages: readonly string[],
  { timeoutMs = SYSLOG_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const { host, port } = destination;
    const socket: Socket =
      destination.transport === "tls"
        ? connectTls({
            host,
            port,
            servername: isIp(host) ? undefined : host,
            ...(destination.ca ? { ca: destination.ca } : {}),
          })
        : connectTcp({ host, port });
    let settled = false;
    let peerEnded = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(
      () => finish(new Error(`the syslog server did not take the batch within ${inWords(timeoutMs)}`)),
      timeoutMs,
    );
    socket.setNoDelay(true);
    socket.on("error", (error) => finish(error));
    socket.on("data", () => {}); // a receiver has nothing to say; read it so the connection can close
    socket.on("end", () => (peerEnded = true));
    socket.on("close", () =>
      finish(peerEnded ? undefined : new Error("the syslog connection closed before the server had read the batch")),
    );
    socket.once(destination.transport === "tls" ? "secureConnect" : "connect", () => {
      socket.end(messages.map(frame).join(""));
    });
  });
}

const isIp = (host: string): boolean => /^[\d.]+$/.test(host) || host.includes(":");

const inWords = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);
