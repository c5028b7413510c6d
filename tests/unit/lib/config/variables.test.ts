// The list of variables (lib/config/variables.ts) is the look-alike check's dictionary: a variable code reads but
// the list lacks would be called a look-alike of another and refused. So every name the configuration code reads
// is on the list, the list is documented, and .env.example names nothing else.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { isKnownVariable, RETIRED_VARIABLES, VARIABLE_NAMES } from "@/lib/config/variables";
import { ROOT } from "@/tests/support/processes";

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

// Environment names of our families, as string literals or property accesses (env.NAME, "NAME").
const NAME =
  /\b(?:GATEHOUSE|DEMO|SANDBOX|REPORTS_API|ITEMS_API|UPSTREAM|SHUTDOWN|DATABASE|SESSION|ADMIN|PURCHASE|PUBLIC|ALLOWED|TRUST|OIDC|PASSWORD|BREAK_GLASS)_[A-Z0-9_]*[A-Z0-9]\b/g;

function sources(): string[] {
  const files = [
    ...readdirSync(path.join(ROOT, "lib/config")).map((file) => `lib/config/${file}`),
    ...readdirSync(path.join(ROOT, "lib/cli")).map((file) => `lib/cli/${file}`),
    "lib/auth/request.ts",
    "lib/sandbox/cli.ts",
    "next.config.mjs",
  ];
  return files.filter((file) => /\.(ts|mjs)$/.test(file));
}

describe("the variables list", () => {
  it("holds every variable the configuration code names", () => {
    const unknown = new Set<string>();
    for (const file of sources()) {
      // Comments name look-alikes as examples; only code counts.
      const code = read(file)
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/(^|\s)\/\/.*$/gm, "$1");
      for (const [name] of code.matchAll(NAME)) {
        // Constants of our own that are not variables (DEMO_FLAG names GATEHOUSE_DEMO; DEMO_PASSWORD is a value).
        if (
          /^(DEMO_(FLAG|PASSWORD|USERS|DOMAIN|DATABASE_FILE|EDGE_SETTINGS|SESSION_SECRET_FILE|KEK_FILE)|SANDBOX_KEYS|SESSION_SECRET_MIN_LENGTH|SESSION_MANAGER)$/.test(
            name,
          )
        )
          continue;
        // A retired one is named to be refused (the sandbox's command refuses its own).
        if (!isKnownVariable(name) && !Object.hasOwn(RETIRED_VARIABLES, name)) unknown.add(`${name} (${file})`);
      }
    }
    expect([...unknown]).toEqual([]);
  });

  it("is documented in docs/configuration.md, every variable", () => {
    const doc = read("docs/configuration.md");
    expect(VARIABLE_NAMES.filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });

  it("is the only source of .env.example's names", () => {
    const names = [...read(".env.example").matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!);
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((name) => !isKnownVariable(name))).toEqual([]);
  });
});
