// How Gatehouse runs: configured (the default: real upstreams, the operator's store and settings) or demo
// (`npm run demo` sets GATEHOUSE_DEMO=1: the embedded sandbox, demo accounts, everything under DEMO_DATA_DIR).
// Demo mode is only ever asked for, never inferred from missing settings. No `server-only`: proxy.ts and the
// CLIs read it too.
import path from "node:path";

type Env = Record<string, string | undefined>;

export const DEMO_FLAG = "GATEHOUSE_DEMO";
export const DEFAULT_DEMO_DATA_DIR = "./data/demo";

export type Mode = "configured" | "demo";

/** True when GATEHOUSE_DEMO=1. Any other value is not demo mode (and a value other than 0 or 1 is a start error). */
export function isDemoMode(env: Env = process.env): boolean {
  return env[DEMO_FLAG]?.trim() === "1";
}

export function modeOf(env: Env = process.env): Mode {
  return isDemoMode(env) ? "demo" : "configured";
}

/** Why GATEHOUSE_DEMO's value is refused, or null when it is unset, empty, 0 or 1. */
export function demoFlagProblem(env: Env): string | null {
  const value = env[DEMO_FLAG]?.trim();
  if (value === undefined || value === "" || value === "0" || value === "1") return null;
  return "must be 1 (demo mode, as npm run demo sets it) or unset";
}

/** The folder demo mode writes to: DEMO_DATA_DIR, or ./data/demo, resolved against the working directory. */
export function demoDataDir(env: Env = process.env, cwd = process.cwd()): string {
  const value = env.DEMO_DATA_DIR?.trim();
  return path.resolve(cwd, value ? value : DEFAULT_DEMO_DATA_DIR);
}
