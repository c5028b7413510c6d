// Canary API keys: unique strings that tests configure as the upstream keys, then hunt for in every response,
// log line and built client file. Finding one anywhere means a key left the server.
export const CANARY = {
  reports: "canary-reports-key-7f3c9a1e5b2d4f60",
  items: "canary-items-key-c4e8b2a6d0f13579",
  /** An area B key of the sandbox's seller without items. */
  itemsEmpty: "canary-items-empty-key-9d1f3b5a7c",
  /** Keys an admin sets in the portal (tests of issue 20): a first one, the one rotated to, and one for area B. */
  portalReports: "canary-portal-reports-key-3e5a7c9b1d",
  portalReportsNext: "canary-portal-reports-next-8b6d4f2a0c",
  portalItems: "canary-portal-items-key-5c7e9a1b3d",
} as const;

/**
 * A key in the forms an upstream or a library may echo it: any case, percent-encoded (every character, once or
 * twice), hex, and inside base64/base64url text at each of the 3 byte alignments (the characters that depend on
 * the key's bytes alone). Compare case-insensitively except for the base64 forms (see `found`).
 */
export function keyEncodings(key: string): { anyCase: string[]; exact: string[] } {
  const bytes = Buffer.from(key);
  const percent = [...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
  const exact: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const needle = encoded.slice([0, 2, 3][offset], Math.floor(((offset + bytes.length) * 8) / 6));
    exact.push(needle, needle.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return {
    anyCase: [key, encodeURIComponent(key), percent, percent.replace(/%/g, "%25"), bytes.toString("hex")],
    exact,
  };
}

function found(text: string, key: string): boolean {
  const { anyCase, exact } = keyEncodings(key);
  const lower = text.toLowerCase();
  return (
    anyCase.some((needle) => lower.includes(needle.toLowerCase())) || exact.some((needle) => text.includes(needle))
  );
}

/** Throws naming the first canary found in `text` (in any encoding), with `where` to say which response, line or file held it. */
export function assertNoCanary(text: string, where: string): void {
  for (const key of Object.values(CANARY)) {
    if (found(text, key)) throw new Error(`A canary key leaked into ${where}`);
  }
}

/** Written by tests/support/build.ts after a build with the canary keys in the environment. */
export const CANARY_BUILD_MARKER = `${process.env.NEXT_DIST_DIR || ".next"}/gatehouse-canary-build.json`;
