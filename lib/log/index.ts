// Structured logging: one JSON object per line on stdout, every string redacted (see ./redact.ts).
export { redact, redactSecrets, registerSecrets, secretsGeneration } from "./redact";
export { recordUpstreamCall, runOutsideRequestContext, runWithRequestContext } from "./context";
export type { RequestContext } from "./context";

import { hostname } from "node:os";

import { processSlot } from "@/lib/process-wide";

import { redactedJson } from "./redact";

export type LogLevel = "info" | "warn" | "error";

// The active trace's id, when tracing is on (lib/telemetry/start.ts registers where to read it): every line
// written while serving a request, a job or a delivery names its trace, so an operator goes from a line to the trace.
const traceIdSlot = processSlot<() => string | null>("log.traceId");

/** Where logEvent reads the active trace id; null when tracing is off (then no line has a trace_id). */
export function setTraceIdSource(source: (() => string | null) | null): void {
  traceIdSlot.set(source ?? undefined);
}

// Which instance wrote a line: several instances behind a load balancer log to one place.
const instanceSlot = processSlot<string>("log.instance");

/** This process's name when INSTANCE_ID is not set: the host and the process id. */
export function defaultInstanceId(): string {
  return `${hostname()}:${process.pid}`;
}

/** Names this instance (INSTANCE_ID, from lib/config) in every line from now on; returns the name in use. */
export function setLogInstance(id: string | null): string {
  const name = id ?? defaultInstanceId();
  instanceSlot.set(name);
  return name;
}

/** The name of this instance, as every log line gives it. */
export function instanceId(): string {
  return instanceSlot.get() ?? setLogInstance(null);
}

/** Writes one log line. `fields` should be flat and JSON-friendly; it is redacted before it is written. */
export function logEvent(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  const traceId = traceIdSlot.get()?.() ?? null;
  const line = { time: new Date().toISOString(), level, instance: instanceId(), msg, ...fields };
  process.stdout.write(`${redactedJson(traceId === null ? line : { ...line, trace_id: traceId })}\n`);
}

/** A loggable summary of an unexpected error: its name, message and stack, all redacted later by logEvent. */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, stack: error.stack?.split("\n").slice(0, 8).join("\n") };
  }
  return { name: typeof error, message: String(error) };
}
