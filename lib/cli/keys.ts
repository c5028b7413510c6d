// Operators' upstream keys CLI: `npm run keys -- <command>`. Runs under tsx with the react-server condition, like
// `npm run users`. Exit codes: 0 done, 1 refused (a KEK missing, weak or not opening a stored key), 2 usage.
import { AREAS } from "@/lib/contract/areas";
import { readKeyEncryptionKeys } from "@/lib/config/kek";
import { formatProblem } from "@/lib/config/env";
import { configuredStoreTarget, DatabaseUrlError } from "@/lib/config/store";
import { openDb } from "@/lib/db";
import { isKeyUnsealError, listStoredKeys, resealAll } from "@/lib/upstream/keys/store";

import { runWhenEntryPoint, type Output } from "./entry";

const USAGE = `Usage: npm run keys -- <command>

Commands:
  list         the upstream keys kept in the portal: area, fingerprint, last 4 characters, in use or not
  rotate-kek   re-seal every stored key under GATEHOUSE_KEK, opening each with GATEHOUSE_KEK or
               GATEHOUSE_KEK_PREVIOUS (the old KEK); all keys or none, in one transaction

Rotating the key-encryption key (docs/operations.md, "Rotating GATEHOUSE_KEK"): give every instance the new
GATEHOUSE_KEK and the old one as GATEHOUSE_KEK_PREVIOUS, run rotate-kek once, then remove GATEHOUSE_KEK_PREVIOUS.
The store is DATABASE_URL (default ./data/gatehouse.db), as for the portal; the CLI reads .env.local too.`;

/** Runs one command; returns the exit code. Exported for in-process tests. */
export async function main(
  argv: string[],
  io: Output,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || rest.length > 0 || !["list", "rotate-kek"].includes(command)) {
    io.err(
      `keys: ${command ? (rest.length > 0 ? `${command} takes no arguments` : `unknown command "${command}"`) : "a command is needed"}\n\n${USAGE}`,
    );
    return 2;
  }
  let target;
  try {
    target = configuredStoreTarget(env);
  } catch (error) {
    if (!(error instanceof DatabaseUrlError)) throw error;
    io.err(`keys: ${error.message}`);
    return 1;
  }
  const store = await openDb(target);
  try {
    if (command === "list") {
      for (const area of AREAS) {
        for (const key of await listStoredKeys(store.db, area)) {
          io.out(
            `${area}\t${key.fingerprint}\t${key.last4 === null ? "(short key)" : `…${key.last4}`}\t${key.active ? "in use" : "disabled"}\tset ${key.createdAt} by ${key.createdBy ?? "?"}`,
          );
        }
      }
      return 0;
    }
    const { keys, problems } = readKeyEncryptionKeys(env);
    if (problems.length > 0) {
      for (const problem of problems) io.err(`keys: ${formatProblem(problem)}`);
      return 1;
    }
    if (!keys.current) {
      io.err(
        "keys: GATEHOUSE_KEK: is missing; set the new key-encryption key (and the old one as GATEHOUSE_KEK_PREVIOUS)",
      );
      return 1;
    }
    try {
      const count = await resealAll(store.db, keys);
      io.out(
        `Re-sealed ${count === 1 ? "1 upstream key" : `${count} upstream keys`} under the new GATEHOUSE_KEK. GATEHOUSE_KEK_PREVIOUS can now be removed from every instance.`,
      );
      return 0;
    } catch (error) {
      if (!isKeyUnsealError(error)) throw error;
      io.err(`keys: ${error.message}. Nothing was changed.`);
      return 1;
    }
  } finally {
    await store.close();
  }
}

runWhenEntryPoint("keys", import.meta.url, main);
