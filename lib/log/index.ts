// Structured logging: one JSON object per line on stdout, every string redacted (see ./redact.ts).
export { redact, redactDeep, redactSecrets, registerSecrets } from "./redact";
export { currentRequestContext, recordUpstreamCall, runOutsideRequestContext, runWithRequestContext } from "./context";
export type { RequestContext, UpstreamCallRecord } from "./context";

import { redactDeep } from "./redact";

export type LogLevel = "info" | "warn" | "error";

/** Writes one log line. `fields` should be flat and JSON-friendly; it is redacted before it is written. */
export function logEvent(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  const line = redactDeep({ time: new Date().toISOString(), level, msg, ...fields });
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** A loggable summary of an unexpected error: its name, message and stack, all redacted later by logEvent. */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, stack: error.stack?.split("\n").slice(0, 8).join("\n") };
  }
  return { name: typeof error, message: String(error) };
}
