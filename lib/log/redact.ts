// Redaction: the one place that decides what a secret looks like in text. Every log line and every error
// message that may reach a log passes through here. No `server-only`: it holds no key itself, and the
// registered values live only in server memory.

const REDACTED = "[REDACTED]";

// On globalThis because Next bundles instrumentation and route handlers separately: each bundle gets its own
// copy of this module, but they must share the keys registered at start.
const SECRETS_SLOT = Symbol.for("gatehouse.log.secrets");
type SecretStore = { values: Set<string> };
const globalSlots = globalThis as unknown as Record<symbol, SecretStore | undefined>;

function secretStore(): SecretStore {
  globalSlots[SECRETS_SLOT] ??= { values: new Set() };
  return globalSlots[SECRETS_SLOT];
}

/** Registers values (API keys) that must never appear in a log line. Short values are refused: redacting "a" would shred every line. */
export function registerSecrets(values: Iterable<string>): void {
  const store = secretStore();
  for (const value of values) {
    if (value.length >= 8) store.values.add(value);
  }
}

// Patterns that look like credentials whatever their value: a query/form `api_key=...`, a JSON `"api_key":"..."`,
// and an `Authorization: Bearer ...` token.
const CREDENTIAL_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/(api[_-]?key=)[^&\s"'<>]+/gi, `$1${REDACTED}`],
  [/("api[_-]?key"\s*:\s*")[^"]*/gi, `$1${REDACTED}`],
  [/(bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`],
];

// Object keys whose values are credentials whatever they hold.
const SECRET_FIELD_NAMES = /^(api[_-]?key|authorization|x-api-key|password|cookie|set-cookie)$/i;

/** Removes every registered key value and every credential-looking pattern from a string. */
export function redact(text: string): string {
  let out = text;
  for (const secret of secretStore().values) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of CREDENTIAL_PATTERNS) out = out.replace(pattern, replacement);
  return out;
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
