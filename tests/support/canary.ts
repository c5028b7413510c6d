// Canary API keys: unique strings that tests configure as the upstream keys, then hunt for in every response,
// log line and built client file. Finding one anywhere means a key left the server.
export const CANARY = {
  reports: "canary-reports-key-7f3c9a1e5b2d4f60",
  items: "canary-items-key-c4e8b2a6d0f13579",
  /** An area B key of the sandbox's seller without items. */
  itemsEmpty: "canary-items-empty-key-9d1f3b5a7c",
} as const;

/** Every canary, and the encodings under which a leaked key could still be recognised. */
export function canaryNeedles(): string[] {
  return Object.values(CANARY).flatMap((key) => [key, encodeURIComponent(key), Buffer.from(key).toString("base64")]);
}

/** Throws naming the first canary found in `text`, with `where` to say which response, line or file held it. */
export function assertNoCanary(text: string, where: string): void {
  for (const needle of canaryNeedles()) {
    if (text.includes(needle)) throw new Error(`A canary key leaked into ${where}`);
  }
}

/** Written by tests/support/build.ts after a build with the canary keys in the environment. */
export const CANARY_BUILD_MARKER = `${process.env.NEXT_DIST_DIR || ".next"}/gatehouse-canary-build.json`;
