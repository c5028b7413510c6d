// Traces: whether Gatehouse exports them, read from the standard OpenTelemetry variables. They are on when
// OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set (OTLP over HTTP), and off — the SDK not
// even loaded — otherwise. Checked here so that a bad endpoint stops the start with one line (./check.ts); the SDK
// then reads these and the other OTEL_* variables itself (lib/telemetry/start.ts). No `server-only`: the start-up
// check imports it.
import type { ConfigProblem } from "./env";

type Env = Record<string, string | undefined>;

export interface TelemetrySettings {
  /** service.name to give when OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name none ("gatehouse"), else null. */
  serviceName: string | null;
  /** OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf (the standard's default). */
  protocol: "http/protobuf" | "http/json";
}

export const DEFAULT_SERVICE_NAME = "gatehouse";

const ENDPOINTS = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] as const;
const PROTOCOLS = ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] as const;

const value = (env: Env, name: string): string | undefined => env[name]?.trim() || undefined;

function endpointProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "must be the OTLP/HTTP receiver's URL, such as http://collector:4318";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return "must be an http or https URL (Gatehouse exports traces over OTLP/HTTP)";
  return null;
}

/** The trace settings, or null when tracing is off; every bad variable is a problem (never its value: it may hold a token). */
export function readTelemetrySettings(env: Env): { settings: TelemetrySettings | null; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  for (const name of ENDPOINTS) {
    const text = value(env, name);
    const problem = text === undefined ? null : endpointProblem(text);
    if (problem) problems.push({ variable: name, problem });
  }
  for (const name of PROTOCOLS) {
    const text = value(env, name);
    if (text !== undefined && text !== "http/protobuf" && text !== "http/json")
      problems.push({ variable: name, problem: "must be http/protobuf or http/json (OTLP over HTTP)", value: text });
  }
  const on = value(env, "OTEL_SDK_DISABLED")?.toLowerCase() !== "true" && ENDPOINTS.some((n) => value(env, n));
  if (problems.length > 0 || !on) return { settings: null, problems };
  const named =
    value(env, "OTEL_SERVICE_NAME") !== undefined || /(^|,)\s*service\.name=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? "");
  const protocol = value(env, PROTOCOLS[1]) ?? value(env, PROTOCOLS[0]) ?? "http/protobuf";
  return {
    settings: { serviceName: named ? null : DEFAULT_SERVICE_NAME, protocol: protocol as TelemetrySettings["protocol"] },
    problems,
  };
}
