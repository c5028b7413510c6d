// Sending to a webhook endpoint without letting it reach inside: the URL must be https (http only with
// WEBHOOK_ALLOW_PRIVATE=1; in the demo, its sandbox's receiver on loopback is allowed, that URL only), its host is resolved here and every address it resolves to must be public, and the
// request then connects to the address that was checked (so a DNS answer that changes between the check and
// the connection — DNS rebinding — cannot send it elsewhere). Redirects are not followed, the answer's body is
// read up to a cap, and the whole exchange has a deadline.
import "server-only";

import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";

import { refusedAddressReason } from "@/lib/net";

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Bytes of an answer read (and then the connection closed); the log keeps the first EXCERPT_CHARS. */
const MAX_RESPONSE_BYTES = 64 * 1024;
export const EXCERPT_CHARS = 1_000;

export interface TargetRules {
  /** WEBHOOK_ALLOW_PRIVATE=1: http and private addresses allowed (development and tests). */
  allowPrivate: boolean;
  /** Demo mode: the embedded sandbox's receiver on loopback, allowed as it is (that URL exactly, nothing else). */
  demoReceiver?: string | null;
}

export interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Why the URL cannot be sent to, or the address to connect to. */
export async function resolveTarget(
  text: string,
  rules: TargetRules,
  resolve = lookup,
): Promise<{ ok: true; target: Target } | { ok: false; reason: string }> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "is not a URL" };
  }
  if (rules.demoReceiver && url.href === new URL(rules.demoReceiver).href) {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    return { ok: true, target: { url, address: host, family: isIP(host) === 6 ? 6 : 4 } };
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && rules.allowPrivate)) {
    // The person is told what to do; the operator's switch for development is in docs/configuration.md.
    return {
      ok: false,
      reason: rules.allowPrivate ? "must start with http:// or https://" : "must start with https://",
    };
  }
  if (url.username || url.password) return { ok: false, reason: "must not carry a user name or password" };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host)
      ? [{ address: host, family: isIP(host) }]
      : await resolve(host, { all: true, verbatim: true });
  } catch {
    return { ok: false, reason: `names a host that does not resolve (${host})` };
  }
  if (addresses.length === 0) return { ok: false, reason: `names a host that does not resolve (${host})` };
  if (!rules.allowPrivate) {
    // Every address must be public: a host that resolves to one public and one private address could be
    // connected to either.
    for (const { address } of addresses) {
      const refused = refusedAddressReason(address);
      if (refused)
        return { ok: false, reason: `resolves to ${address}, ${refused}: webhooks go only to public addresses` };
    }
  }
  const first = addresses[0]!;
  return { ok: true, target: { url, address: first.address, family: first.family === 6 ? 6 : 4 } };
}

export interface SendResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
}

/** POSTs `body` to the checked target, connecting to its checked address only. */
export function sendToTarget(
  target: Target,
  headers: Record<string, string>,
  body: string,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // The connection goes to the checked address whatever DNS says now; the Host header and TLS name stay the URL's.
  // The answer comes on the next tick, as dns.lookup's always does: answered at once, an address that fails at
  // once (ENETUNREACH: IPv6 on an IPv4-only host, a broadcast address) destroys the socket inside tls.connect,
  // before TLS has set it up, and the error escapes as an uncaughtException instead of reaching the request.
  const pinned: LookupFunction = (_hostname, options, callback) =>
    process.nextTick(() => {
      if ((options as { all?: boolean }).all)
        (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
          { address: target.address, family: target.family },
        ]);
      else callback(null, target.address, target.family);
    });
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...result, durationMs: elapsed() });
    };
    const deadline = setTimeout(() => {
      finish({ ok: false, status: null, error: `no answer within ${timeoutMs / 1000} s`, excerpt: null });
      request?.destroy();
    }, timeoutMs);
    try {
      request = client.request(
        target.url,
        {
          method: "POST",
          headers: {
            ...headers,
            "Content-Type": "application/json",
            "Content-Length": String(Buffer.byteLength(body)),
            "User-Agent": "Gatehouse-Webhooks/1",
          },
          lookup: pinned,
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => {
            const status = response.statusCode ?? 0;
            const excerpt = Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_CHARS);
            const ok = status >= 200 && status < 300;
            const redirect =
              status >= 300 && status < 400 ? `answered ${status} (a redirect, which webhooks do not follow)` : null;
            finish({ ok, status, error: ok ? null : redirect, excerpt: excerpt === "" ? null : excerpt });
            request?.destroy();
          };
          response.on("data", (chunk: Buffer) => {
            if (size >= MAX_RESPONSE_BYTES) return;
            chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
            size += chunk.length;
            if (size >= MAX_RESPONSE_BYTES) done();
          });
          response.on("end", done);
          response.on("error", done);
        },
      );
      request.on("error", (error: NodeJS.ErrnoException) => {
        finish({ ok: false, status: null, error: connectionError(error), excerpt: null });
      });
      request.end(body);
    } catch (error) {
      // Whatever fails while connecting is this attempt's failure, recorded and retried, never a stalled runner.
      finish({ ok: false, status: null, error: connectionError(error as NodeJS.ErrnoException), excerpt: null });
      request?.destroy();
    }
  });
}

function connectionError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "the connection was refused";
    case "ECONNRESET":
      return "the connection was reset";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the host cannot be reached";
    default:
      return error.code ? `the request failed (${error.code})` : "the request failed";
  }
}
