// Traces' settings: on only with an OTLP endpoint; a bad endpoint or a protocol other than OTLP/HTTP is a problem
// of one line that never quotes the endpoint (it may carry a collector's token).
import { describe, expect, it } from "vitest";

import { formatProblem } from "@/lib/config/env";
import { readTelemetrySettings } from "@/lib/config/telemetry";

describe("readTelemetrySettings", () => {
  it("is off without an endpoint, and when the SDK is disabled", () => {
    expect(readTelemetrySettings({})).toEqual({ settings: null, problems: [] });
    expect(
      readTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }),
    ).toEqual({ settings: null, problems: [] });
  });

  it("is on with either endpoint, named gatehouse unless the environment names the service", () => {
    expect(readTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).settings).toEqual({
      serviceName: "gatehouse",
      protocol: "http/protobuf",
    });
    expect(
      readTelemetrySettings({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://collector.example/v1/traces",
        OTEL_SERVICE_NAME: "gate-eu",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
      }).settings,
    ).toEqual({ serviceName: null, protocol: "http/json" });
    expect(
      readTelemetrySettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod,service.name=gate",
      }).settings?.serviceName,
    ).toBeNull();
  });

  it("refuses a bad endpoint in one line, without quoting it, and a gRPC protocol", () => {
    const { settings, problems } = readTelemetrySettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "collector 4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "ftp://collector",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
    });
    expect(settings).toBeNull();
    expect(problems.map(formatProblem)).toEqual([
      "OTEL_EXPORTER_OTLP_ENDPOINT: must be the OTLP/HTTP receiver's URL, such as http://collector:4318",
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: must be an http or https URL (Gatehouse exports traces over OTLP/HTTP)",
      'OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" must be http/protobuf or http/json (OTLP over HTTP)',
    ]);
  });
});
