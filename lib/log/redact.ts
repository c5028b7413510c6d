// Redaction: the one place that decides what a secret looks like in text. Every log line, every error message
// that may reach a log or a client, and every JSON answer of the API passes through here. No `server-only`: it
// holds no key itself, and the registered values live only in server memory.
//
// A key is recognised in the forms an upstream or a library may echo it: as it is, in any letter case, with any
// of its characters percent-encoded (once or twice) or \u-escaped, as hex, and inside base64 or base64url text
// (at each of the three byte alignments a key can have inside a longer encoded string).
import { processSlot } from "@/lib/process-wide";

const REDACTED = "[REDACTED]";

interface SecretMatcher {
  /** The key as text: any case, any character percent-encoded or \u-escaped; or its hex. */
  text: RegExp;
  /** The key inside base64/base64url: case matters there. */
  encoded: RegExp | null;
}

// Every bundle must redact the keys instrumentation registered at start.
type SecretStore = { values: Set<string>; matchers: SecretMatcher[]; generation?: number };
const secretsSlot = processSlot<SecretStore>("log.secrets");

function secretStore(): SecretStore {
  const store = secretsSlot.get();
  // A store registered by an older copy of this module has no matchers yet.
  if (store && Array.isArray(store.matchers)) return store;
  const fresh: SecretStore = { values: new Set(store?.values ?? []), matchers: [] };
  for (const value of fresh.values) fresh.matchers.push(matcherFor(value));
  secretsSlot.set(fresh);
  return fresh;
}

/** Shorter values are refused: redacting "a" would shred every line, and a key is never that short. */
export const MIN_SECRET_LENGTH = 8;

/** Registers values (API keys, secrets) that must never appear in a log line or an answer. */
export function registerSecrets(values: Iterable<string>): void {
  const store = secretStore();
  for (const value of values) {
    if (value.length < MIN_SECRET_LENGTH || store.values.has(value)) continue;
    store.values.add(value);
    store.matchers.push(matcherFor(value));
    store.generation = (store.generation ?? 0) + 1;
  }
}

/** Changes whenever a value is registered: text redacted before then may hold the new one. */
export function secretsGeneration(): number {
  return secretStore().generation ?? 0;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One character of the key: itself (any case), or its UTF-8 bytes percent-encoded (also twice), or \uXXXX. */
function characterForms(char: string): string {
  const bytes = [...Buffer.from(char, "utf8")].map((byte) => byte.toString(16).padStart(2, "0"));
  const percent = bytes.map((hex) => `%${hex}`).join("");
  const doubled = bytes.map((hex) => `%25${hex}`).join("");
  const unicode = char.length === 1 ? `|\\\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}` : "";
  return `(?:${escapeRegExp(char)}|${percent}|${doubled}${unicode})`;
}

/**
 * The parts of base64 text that encode `secret` whatever precedes it: for each of the 3 byte offsets the key
 * can start at, the characters that depend on the key's bytes alone.
 */
function base64Needles(secret: Buffer): string[] {
  const needles: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), secret]).toString("base64");
    const start = [0, 2, 3][offset]!;
    const end = Math.floor(((offset + secret.length) * 8) / 6);
    const needle = encoded.slice(start, end);
    if (needle.length >= MIN_SECRET_LENGTH) needles.push(needle, needle.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...new Set(needles)];
}

function matcherFor(secret: string): SecretMatcher {
  const bytes = Buffer.from(secret, "utf8");
  const characters = Array.from(secret).map(characterForms).join("");
  const text = new RegExp(`${characters}|${bytes.toString("hex")}`, "gi");
  const needles = base64Needles(bytes);
  const encoded = needles.length > 0 ? new RegExp(needles.map(escapeRegExp).join("|"), "g") : null;
  return { text, encoded };
}

// Patterns that look like credentials whatever their value: a query/form `api_key=...`, a JSON `"api_key":"..."`,
// an `Authorization: Bearer ...` token, and Gatehouse's own token (gth_…) and webhook secret (whsec_…) formats.
const CREDENTIAL_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/(api[_-]?key=)[^&\s"'<>]+/gi, `$1${REDACTED}`],
  [/("api[_-]?key"\s*:\s*")[^"]*/gi, `$1${REDACTED}`],
  // The same inside a JSON string of JSON text (a log line that quotes an upstream body): \"api_key\":\"…\".
  [/(\\"api[_-]?key\\"\s*:\s*\\")[^"\\]*/gi, `$1${REDACTED}`],
  [/(bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`],
  // Gatehouse's own API tokens and webhook signing secrets, wherever they appear in a line.
  [/\bgth_[0-9A-Za-z]{38}\b/g, REDACTED],
  [/\bwhsec_[A-Za-z0-9+/]{20,}={0,2}/g, REDACTED],
];

// Object keys whose values are credentials whatever they hold.
const SECRET_FIELD_NAMES = /^(api[_-]?key|authorization|x-api-key|password|cookie|set-cookie)$/i;

/**
 * Removes every registered key value, in any of its encodings, from a string — and nothing else. For answers,
 * whose text (a report URL, an item description) may legitimately say "Bearer" or "api_key=".
 */
export function redactSecrets(text: string): string {
  let out = text;
  for (const { text: plain, encoded } of secretStore().matchers) {
    out = out.replace(plain, REDACTED);
    if (encoded) out = out.replace(encoded, REDACTED);
  }
  return out;
}

/**
 * Removes one value that is not registered (in every form a registered one is found in) from a string. For a
 * value that must not be quoted back but is no secret of ours: a key an admin tests that the upstream refuses.
 */
export function redactValue(text: string, value: string): string {
  if (value.length < MIN_SECRET_LENGTH) return text;
  const { text: plain, encoded } = matcherFor(value);
  const out = text.replace(plain, REDACTED);
  return encoded ? out.replace(encoded, REDACTED) : out;
}

/** Removes every registered key value (in any encoding) and every credential-looking pattern from a string. */
export function redact(text: string): string {
  let out = redactSecrets(text);
  for (const [pattern, replacement] of CREDENTIAL_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * A JSON-like value as redacted JSON text, for a log line: fields named like credentials replaced whole, nesting cut
 * at 8 levels and an object met again (a cycle) cut, then every registered key and credential-looking pattern removed in one
 * pass over the text — about a sixth of the cost of redacting each string on its own (redactDeep).
 */
export function redactedJson(value: unknown): string {
  const depths = new WeakMap<object, number>();
  const json = JSON.stringify(value, function (this: unknown, key: string, field: unknown) {
    if (key !== "" && !Array.isArray(this) && SECRET_FIELD_NAMES.test(key)) return REDACTED;
    if (field !== null && typeof field === "object") {
      const depth = key === "" ? 0 : (depths.get(this as object) ?? 0) + 1;
      // An object met before (a cycle, or one shared) is written once.
      if (depth > 8 || depths.has(field)) return "[…]";
      depths.set(field, depth);
    }
    return field;
  });
  return redact(json);
}

/** Redacts every string inside a JSON-like value; fields named like credentials are replaced whole. */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > 8) return "[…]";
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[redact(key)] = SECRET_FIELD_NAMES.test(key) ? REDACTED : redactDeep(v, depth + 1);
  }
  return out;
}
