// What is insecure about a configured deployment, said at start: one warning per missing or weak production
// setting, and a refusal for the clearly unsafe ones (a secret or a first admin's password anyone could guess).
// Pure: takes the environment and the parsed settings, returns lines. Demo mode has none of these settings.
import { isLoopbackHostname } from "./edge";
import type { ConfigProblem } from "./env";

type Env = Record<string, string | undefined>;

export interface SafetyReview {
  problems: ConfigProblem[];
  warnings: string[];
}

export interface SafetyFacts {
  publicOrigin: string | null;
  allowedHosts: string[] | null;
  trustProxyHops: number;
  /** The items area is configured: purchase checks happen, so their hash key matters. */
  purchaseChecks: boolean;
  sessionSecrets: string[];
}

/** Below this a session secret or hash key is refused; below WEAK_SECRET_BITS it is named in a warning. */
export const UNSAFE_SECRET_BITS = 64;
export const WEAK_SECRET_BITS = 100;

/** Shannon entropy, in bits per character, of the characters' frequencies. */
function bitsPerCharacter(chars: string[]): number {
  const counts = new Map<string, number>();
  for (const char of chars) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / chars.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * A rough estimate of how many bits of guessing a value holds — low for what people type when they do not pick
 * at random: one character repeated, a repeated word ("secretsecret"), a run ("abcdef", "123456"). The value is
 * read as a sequence of tokens — a new character, or a repeat of 3 or more characters seen before — where a
 * character continuing a run costs nothing; the estimate is the number of tokens times the Shannon entropy of
 * the new characters. A random value (openssl rand -base64 32) scores well above 128. It never proves a value
 * is random: an English phrase scores higher than it deserves.
 */
export function estimatedBits(value: string): number {
  const chars = [...value];
  const code = (i: number) => chars[i]!.codePointAt(0)!;
  const literals: string[] = [];
  let tokens = 0;
  for (let i = 0; i < chars.length;) {
    let repeat = 0;
    for (let start = 0; start < i; start++) {
      let length = 0;
      while (i + length < chars.length && chars[start + length] === chars[i + length]) length++;
      repeat = Math.max(repeat, length);
    }
    if (repeat >= 3) {
      tokens++;
      i += repeat;
    } else if (i >= 2 && code(i) - code(i - 1) === code(i - 1) - code(i - 2)) {
      i++;
    } else {
      literals.push(chars[i]!);
      tokens++;
      i++;
    }
  }
  return literals.length === 0 ? 0 : Math.round(bitsPerCharacter(literals) * tokens);
}

function isLoopbackOrigin(origin: string): boolean {
  return isLoopbackHostname(new URL(origin).hostname);
}

const GENERATE = "generate one with: openssl rand -base64 32";

export function reviewSafety(env: Env, facts: SafetyFacts): SafetyReview {
  const problems: ConfigProblem[] = [];
  const warnings: string[] = [];

  facts.sessionSecrets.forEach((secret, i) => {
    const which = facts.sessionSecrets.length > 1 ? `entry ${i + 1} of ${facts.sessionSecrets.length}` : "the secret";
    const bits = estimatedBits(secret);
    if (bits < UNSAFE_SECRET_BITS) {
      problems.push({
        variable: "SESSION_SECRET",
        problem: `${which} is a repeated or patterned value anyone could guess (about ${bits} bits); ${GENERATE}`,
      });
    } else if (bits < WEAK_SECRET_BITS) {
      warnings.push(`SESSION_SECRET: ${which} looks weak (about ${bits} bits of randomness); ${GENERATE}.`);
    }
  });

  const hashKey = env.PURCHASE_CODE_HASH_KEY?.trim();
  if (hashKey) {
    const bits = estimatedBits(hashKey);
    if (bits < UNSAFE_SECRET_BITS) {
      problems.push({
        variable: "PURCHASE_CODE_HASH_KEY",
        problem: `is a repeated or patterned value anyone could guess (about ${bits} bits); ${GENERATE}`,
      });
    } else if (bits < WEAK_SECRET_BITS) {
      warnings.push(`PURCHASE_CODE_HASH_KEY looks weak (about ${bits} bits of randomness); ${GENERATE}.`);
    }
  } else if (facts.purchaseChecks) {
    warnings.push(
      "PURCHASE_CODE_HASH_KEY is not set: purchase codes are hashed with a key derived from SESSION_SECRET, so rotating the secret makes the history forget earlier checks and fails running bulk jobs; set it (openssl rand -base64 32).",
    );
  }

  // ADMIN_PASSWORD is judged by the password policy (lib/auth/password.ts) with the other accounts settings;
  // it also refuses the demo accounts' password, which names the product.

  const origin = facts.publicOrigin;
  if (origin === null) {
    warnings.push(
      facts.allowedHosts === null
        ? "PUBLIC_ORIGIN is not set: the session cookie is not Secure, no HSTS is sent, every Host name is served, and the CSRF check trusts the request's Host; set it to the portal's https origin (e.g. https://portal.example.com)."
        : "PUBLIC_ORIGIN is not set: the session cookie is not Secure and no HSTS is sent; set it to the portal's https origin (e.g. https://portal.example.com).",
    );
  } else if (origin.startsWith("http:") && !isLoopbackOrigin(origin)) {
    warnings.push(
      `PUBLIC_ORIGIN is ${origin}, plain http: passwords and session cookies cross the network readable, the cookie is not Secure and there is no HSTS; serve the portal over https.`,
    );
  }
  if (origin?.startsWith("https:") && facts.trustProxyHops === 0) {
    warnings.push(
      "TRUST_PROXY is not set, but PUBLIC_ORIGIN is https while Gatehouse itself serves http, so a proxy ends TLS in front of it: Gatehouse cannot see clients' addresses (the per-address sign-in limit is off, purchase checks share one per-address bucket); set TRUST_PROXY=1 if that proxy appends X-Forwarded-For.",
    );
  }
  if (env.WEBHOOK_ALLOW_PRIVATE?.trim() === "1") {
    warnings.push(
      "WEBHOOK_ALLOW_PRIVATE=1: webhooks may go over plain http and to loopback, private and cloud-metadata addresses, so anyone who may add an endpoint can make Gatehouse call into your network; it is for development and tests only, remove it.",
    );
  }
  return { problems, warnings };
}
