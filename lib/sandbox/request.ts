// What the sandbox's server reads of a request: its target, its body (capped), a form's fields and the upstream key
// it carried.
import type { IncomingMessage } from "node:http";

export const MAX_BODY_BYTES = 1024 * 1024;

/** The upstream key a request carried: area A's Bearer token, or area B's api_key (form, query or X-Api-Key). */
export function keyCarried(req: IncomingMessage, query: URLSearchParams, form: URLSearchParams | null): string | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  const header = req.headers["x-api-key"];
  return bearer ?? form?.get("api_key") ?? query.get("api_key") ?? (typeof header === "string" ? header : null);
}

export function toRecord(params: URLSearchParams): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    record[key] = values.length === 1 ? values[0]! : values;
  }
  return record;
}

/** What readBody answers for a body over MAX_BODY_BYTES (a value, not an error class: no instanceof). */
export const TOO_LARGE = Symbol("too large");

/** A path segment percent-decoded, or null when its encoding is malformed. */
export function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The request's body, or TOO_LARGE; throws when the client goes away mid-body. */
export async function readBody(req: IncomingMessage): Promise<Buffer | typeof TOO_LARGE> {
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return TOO_LARGE;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return TOO_LARGE;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The request's URL; "//x" stays a path (not a host, as `new URL(target, base)` would read it). */
export function parseRequestTarget(target: string): URL | null {
  try {
    return target.startsWith("/") ? new URL(`http://sandbox.invalid${target}`) : new URL(target);
  } catch {
    return null;
  }
}

export function isFormBody(req: IncomingMessage): boolean {
  return (
    (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase() === "application/x-www-form-urlencoded"
  );
}
