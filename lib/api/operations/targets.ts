// What an audited operation was about, read from its facts (validated input, the answer's `data`): one reader per
// kind of target, shared by the resource files so that every audit row names its target the same way.
import type { AuditTargetSpec } from "./types";

// The facts are typed unknown: a field is read only from an object, and text only from a string or a number (an id
// is a number in `data`, a string in the path).
export const field = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
export const text = (value: unknown): string | null =>
  typeof value === "string" || typeof value === "number" ? String(value) : null;
/** A report by id, with its URL when the answer carries it (the row then reads by name). */
export function reportTarget(id: unknown, data?: unknown): AuditTargetSpec | null {
  const value = text(id);
  const url = field(data, "url");
  return value === null ? null : { type: "report", id: value, label: typeof url === "string" ? url : null };
}
/** A project by its name (the path parameter). */
export function projectTarget(name: unknown): AuditTargetSpec | null {
  return typeof name === "string" && name !== "" ? { type: "project", name } : null;
}
/** An upstream area whose key changed. */
export function upstreamAreaTarget(area: unknown): AuditTargetSpec | null {
  const value = text(area);
  return value === null ? null : { type: "upstream_area", id: value };
}
/** A user by id, with his email when the answer carries it. */
export function userTarget(id: unknown, data?: unknown): AuditTargetSpec | null {
  const value = text(id);
  const email = field(data, "email");
  return value === null ? null : { type: "user", id: value, label: typeof email === "string" ? email : null };
}

/** An API token by id, with its name when the answer carries it. */
export function tokenTarget(id: unknown, data?: unknown): AuditTargetSpec | null {
  const value = text(id);
  const name = field(data, "name");
  return value === null ? null : { type: "token", id: value, label: typeof name === "string" ? name : null };
}

/** A webhook endpoint by id, with its URL when the answer carries it. */
export function webhookTarget(id: unknown, data?: unknown): AuditTargetSpec | null {
  const value = text(id);
  const url = field(data, "url");
  return value === null ? null : { type: "webhook", id: value, label: typeof url === "string" ? url : null };
}
