// How an upstream key is named wherever it is shown (pages, the keys CLI, audit rows, logs, webhook payloads):
// a keyed fingerprint, and its last 4 characters only when the key is long. An unkeyed SHA-256 prefix plus the
// last 4 would let anyone who sees them (a webhook receiver) recover a short key (8–10 characters) offline by
// trying every candidate; keyed with a secret of the server, the fingerprint can only be checked by the server.
import "server-only";

import { createHmac } from "node:crypto";

import { sealer } from "@/lib/seal";

/** Keys shorter than this show no last 4: 4 known characters would leave too few to guess. */
export const SHORT_KEY_LENGTH = 16;

const fingerprintKeys = sealer("gatehouse upstream key fingerprint");

/**
 * First 8 hex characters of HMAC-SHA256 of the key, under a key derived (HKDF) from `secret` (the data key,
 * which the seals of webhook secrets derive from too): enough to tell keys apart, nothing to test a guess against.
 */
export function keyFingerprint(key: string, secret: string): string {
  return createHmac("sha256", fingerprintKeys.key(secret)).update(key).digest("hex").slice(0, 8);
}

/** The key's last 4 characters, or null for a short key. */
export function last4Of(key: string): string | null {
  return key.length < SHORT_KEY_LENGTH ? null : key.slice(-4);
}
