// A start without GATEHOUSE_KEK whose area key variables are unset: the start-up check says "REPORTS_API_KEY is
// missing", which is right for a portal that never kept a key, and wrong for one whose store holds sealed keys:
// there the operator forgot the key-encryption key, and the one line to print names it (lib/config/kek.ts). Read
// by `npm start` (lib/cli/start-check.ts) and by the server's own check (lib/config/startup.ts, through
// instrumentation.ts) before either stops.
import "server-only";

import { existsSync } from "node:fs";

import type { ConfigProblem } from "@/lib/config/env";
import { missingKekProblem } from "@/lib/config/kek";
import { readDatabaseUrl } from "@/lib/config/store";
import { openDb } from "@/lib/db";

import { countStoredKeys } from "./store";

type Env = Record<string, string | undefined>;

const AREA_KEY_VARIABLES = ["REPORTS_API_KEY", "ITEMS_API_KEY"];

const isSet = (env: Env, name: string) => (env[name] ?? "").trim() !== "";

/** The problems, with "<area>_API_KEY is missing" replaced by one GATEHOUSE_KEK line when the store holds sealed keys. */
export async function explainMissingKek(problems: ConfigProblem[], env: Env): Promise<ConfigProblem[]> {
  const keyless = problems.filter(
    (problem) => AREA_KEY_VARIABLES.includes(problem.variable) && !isSet(env, problem.variable),
  );
  if (keyless.length === 0 || isSet(env, "GATEHOUSE_KEK")) return problems;
  const stored = await storedKeys(env);
  if (stored === 0) return problems;
  const at = problems.indexOf(keyless[0]!);
  const rest = problems.filter((problem) => !keyless.includes(problem));
  return [...rest.slice(0, at), missingKekProblem(stored), ...rest.slice(at)];
}

/** How many keys the configured store holds; 0 when it does not exist yet or cannot be read (its own line says why). */
async function storedKeys(env: Env): Promise<number> {
  const read = readDatabaseUrl(env.DATABASE_URL);
  if ("problem" in read) return 0;
  // A start that stops must not leave a new, empty SQLite store behind.
  if (read.target.dialect === "sqlite" && !existsSync(read.target.path)) return 0;
  try {
    const store = await openDb(read.target);
    try {
      return await countStoredKeys(store.db);
    } finally {
      await store.close();
    }
  } catch {
    return 0;
  }
}
