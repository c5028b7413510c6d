// Audit streaming (lib/audit-streams): where the audit log is sent as it is written — a syslog server (RFC 5424 over
// TCP or TLS, octet-counted frames) and/or an HTTP collector (NDJSON batches) — and how long the audit log and the
// streams' delivery log are kept. Read by ./server.ts with the other rooms' settings; a bad value is one problem
// naming its variable (a secret's value never shown).
import "server-only";

import { readFileSync } from "node:fs";

import { z } from "zod";

export interface SyslogDestination {
  transport: "tcp" | "tls";
  host: string;
  port: number;
  /** PEM of the certificate authorities a TLS server's certificate must chain to (AUDIT_SYSLOG_CA_FILE); null: the system's. */
  ca: string | null;
}

export interface HttpDestination {
  url: string;
  /** Sent as `Authorization: Bearer …` (AUDIT_HTTP_TOKEN); never shown, never logged. */
  token: string | null;
}

export interface AuditStreamsConfig {
  syslog: SyslogDestination | null;
  http: HttpDestination | null;
  /** Days an audit row is kept (AUDIT_RETENTION_DAYS); null: forever (the default). */
  retentionDays: number | null;
  /** Days a row of the streams' delivery log is kept (AUDIT_STREAM_LOG_RETENTION_DAYS). */
  deliveryLogRetentionDays: number;
}

export const DEFAULT_DELIVERY_LOG_RETENTION_DAYS = 30;

const days = (max: number) =>
  z.coerce
    .number({ error: "must be a number of days" })
    .int("must be a whole number of days")
    .min(1, "must be at least 1")
    .max(max, `must be at most ${max}`);

/** The variables of this room, in the order their problems are listed. */
export const auditStreamVariables = {
  AUDIT_SYSLOG_URL: z
    .string()
    .transform((value, ctx) => {
      let url: URL;
      try {
        url = new URL(value.trim());
      } catch {
        ctx.addIssue({
          code: "custom",
          message: "must be tcp://host:port or tls://host:port, e.g. tls://logs.example.com:6514",
        });
        return z.NEVER;
      }
      const transport = url.protocol.slice(0, -1);
      if (transport !== "tcp" && transport !== "tls") {
        ctx.addIssue({ code: "custom", message: "must start with tcp:// or tls:// (syslog over TCP, or over TLS)" });
        return z.NEVER;
      }
      if (url.hostname === "" || url.port === "") {
        ctx.addIssue({ code: "custom", message: "must name a host and a port, e.g. tcp://logs.example.com:514" });
        return z.NEVER;
      }
      if (url.username !== "" || url.password !== "" || (url.pathname !== "" && url.pathname !== "/") || url.search) {
        ctx.addIssue({
          code: "custom",
          message: "must be only tcp:// or tls://, a host and a port (no path, user or query)",
        });
        return z.NEVER;
      }
      return {
        transport: transport as "tcp" | "tls",
        host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: Number(url.port),
      };
    })
    .optional(),
  AUDIT_SYSLOG_CA_FILE: z
    .string()
    .transform((file, ctx) => {
      try {
        const pem = readFileSync(file.trim(), "utf8");
        if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
          ctx.addIssue({ code: "custom", message: "must name a PEM file of certificates (it holds none)" });
          return z.NEVER;
        }
        return pem;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        ctx.addIssue({
          code: "custom",
          message: `must name a readable PEM file (${code === "ENOENT" ? "no such file" : (code ?? "unreadable")})`,
        });
        return z.NEVER;
      }
    })
    .optional(),
  AUDIT_HTTP_URL: z
    .string()
    .refine((value) => {
      try {
        const url = new URL(value.trim());
        return (url.protocol === "https:" || url.protocol === "http:") && url.username === "" && url.password === "";
      } catch {
        return false;
      }
    }, "must be an http:// or https:// URL without a user or password (the token goes in AUDIT_HTTP_TOKEN)")
    .optional(),
  AUDIT_HTTP_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{1,4096}$/, "must be one word of printable characters (sent as Authorization: Bearer …)")
    .optional(),
  AUDIT_RETENTION_DAYS: days(36_500).optional(),
  AUDIT_STREAM_LOG_RETENTION_DAYS: days(3650).default(DEFAULT_DELIVERY_LOG_RETENTION_DAYS),
};

type Vars = z.infer<z.ZodObject<typeof auditStreamVariables>>;

/** The settings, and the problems only the variables together show (a CA without TLS, a token without a URL). */
export function auditStreamsConfig(vars: Vars): {
  config: AuditStreamsConfig;
  problems: { variable: string; problem: string }[];
} {
  const problems: { variable: string; problem: string }[] = [];
  if (vars.AUDIT_SYSLOG_CA_FILE !== undefined && vars.AUDIT_SYSLOG_URL?.transport !== "tls")
    problems.push({
      variable: "AUDIT_SYSLOG_CA_FILE",
      problem: "is only read with AUDIT_SYSLOG_URL=tls://…; set that or unset this",
    });
  if (vars.AUDIT_HTTP_TOKEN !== undefined && vars.AUDIT_HTTP_URL === undefined)
    problems.push({ variable: "AUDIT_HTTP_TOKEN", problem: "is only sent to AUDIT_HTTP_URL, which is not set" });
  return {
    config: {
      syslog: vars.AUDIT_SYSLOG_URL ? { ...vars.AUDIT_SYSLOG_URL, ca: vars.AUDIT_SYSLOG_CA_FILE ?? null } : null,
      http: vars.AUDIT_HTTP_URL ? { url: vars.AUDIT_HTTP_URL.trim(), token: vars.AUDIT_HTTP_TOKEN ?? null } : null,
      retentionDays: vars.AUDIT_RETENTION_DAYS ?? null,
      deliveryLogRetentionDays: vars.AUDIT_STREAM_LOG_RETENTION_DAYS,
    },
    problems,
  };
}
