// The key-encryption key (GATEHOUSE_KEK) that seals the upstream keys kept in the portal, and the previous one
// (GATEHOUSE_KEK_PREVIOUS) still accepted while `npm run keys -- rotate-kek` re-seals them. Each is 32 random
// bytes in base64 (`openssl rand -base64 32`); a value that decodes to another length, or whose bytes are plainly
// not random (a repeated pattern, a typed phrase), is refused in one line that never quotes it. Pure, no
// `server-only`: the start-up check, the server and the keys CLI read it.
import type { ConfigProblem } from "./env";

type Env = Record<string, string | undefined>;

export const KEK_BYTES = 32;
/** 32 random bytes have about 30 distinct values; fewer than this is a pattern, not randomness. */
const MIN_DISTINCT_BYTES = 16;

export interface KeyEncryptionKeys {
  /** GATEHOUSE_KEK: seals every new value; null when unset. */
  current: Buffer | null;
  /** GATEHOUSE_KEK_PREVIOUS: opens what the previous KEK sealed, during a rotation; null when unset. */
  previous: Buffer | null;
}

const HOW = "32 random bytes in base64 (openssl rand -base64 32)";

function decodeKek(value: string): Buffer | string {
  const text = value.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return `must be ${HOW}; it is not base64`;
  const bytes = Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes.length !== KEK_BYTES) return `must be ${HOW}; it decodes to ${bytes.length} bytes`;
  if (new Set(bytes).size < MIN_DISTINCT_BYTES)
    return `is not random enough to seal keys (a repeated pattern); use ${HOW}`;
  return bytes;
}

/** Both keys, with one problem per variable that is set and refused. */
export function readKeyEncryptionKeys(env: Env): { keys: KeyEncryptionKeys; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const read = (variable: "GATEHOUSE_KEK" | "GATEHOUSE_KEK_PREVIOUS"): Buffer | null => {
    const value = env[variable];
    if (value === undefined || value.trim() === "") return null;
    const decoded = decodeKek(value);
    if (typeof decoded === "string") {
      problems.push({ variable, problem: decoded });
      return null;
    }
    return decoded;
  };
  const current = read("GATEHOUSE_KEK");
  const previous = read("GATEHOUSE_KEK_PREVIOUS");
  const previousSet = env.GATEHOUSE_KEK_PREVIOUS !== undefined && env.GATEHOUSE_KEK_PREVIOUS.trim() !== "";
  const currentSet = env.GATEHOUSE_KEK !== undefined && env.GATEHOUSE_KEK.trim() !== "";
  if (previousSet && !currentSet) {
    problems.push({
      variable: "GATEHOUSE_KEK_PREVIOUS",
      problem: "is set without GATEHOUSE_KEK: the previous key is only read during a rotation to a new GATEHOUSE_KEK",
    });
  } else if (current && previous && current.equals(previous)) {
    problems.push({
      variable: "GATEHOUSE_KEK_PREVIOUS",
      problem: "is the same key as GATEHOUSE_KEK; leave it unset unless you are rotating to a new one",
    });
  }
  return { keys: { current, previous }, problems };
}

/** The line that stops a start whose store holds sealed upstream keys but has no GATEHOUSE_KEK to open them. */
export function missingKekProblem(storedKeys: number): ConfigProblem {
  const what = storedKeys === 1 ? "1 upstream key" : `${storedKeys} upstream keys`;
  return {
    variable: "GATEHOUSE_KEK",
    problem: `is missing, and the store holds ${what} sealed under it; set the key-encryption key they were saved with (${HOW} when it was made)`,
  };
}
