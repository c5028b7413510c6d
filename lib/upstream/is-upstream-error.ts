// Telling upstream failures apart without `instanceof`. Next's production build can give one module a copy per
// server chunk: the upstream layer's single Resilience (created by whichever route or page used it first) then
// throws UpstreamErrors of its own chunk's class, which are not `instanceof` the class another chunk imported —
// so a page rendered after an API call answered 500 for an upstream timeout instead of its failure card. These
// checks read what every copy of the class sets: its name and its fields.
import type { CircuitOpenError, UpstreamError } from "./errors";

export function isUpstreamError(error: unknown): error is UpstreamError {
  if (!(error instanceof Error) || (error.name !== "UpstreamError" && error.name !== "CircuitOpenError")) return false;
  const { kind, area, operation } = error as Partial<Record<"kind" | "area" | "operation", unknown>>;
  return typeof kind === "string" && typeof area === "string" && typeof operation === "string";
}

/** The area's circuit breaker was open: nothing was sent. */
export function isCircuitOpenError(error: unknown): error is CircuitOpenError {
  return isUpstreamError(error) && error.name === "CircuitOpenError" && typeof (error as CircuitOpenError).retryAfterSeconds === "number";
}
