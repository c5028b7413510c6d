// At server start (instrumentation.ts, after the configuration): connect to Redis when REDIS_URL is set, and
// say in one warning line when this instance will not act as one portal with others: a second process on the
// same SQLite file, or PostgreSQL (the store of several instances) without Redis.
import "server-only";

import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";

import type { Config } from "@/lib/config";
import { makeStoreFolder, storeTarget } from "@/lib/config/store";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { instanceId, logEvent } from "@/lib/log";

import { startCluster, type Cluster } from "./index";

/** Whether a process with this id runs on this machine now. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A SQLite store is one instance's: `<store>.instance` names the process that uses it. Another live process
 * named there means two instances on one file — each with its own limits, cache and jobs. Returns the warning.
 */
export function claimSqliteFile(file: string, pid = process.pid, id = instanceId()): string | null {
  const marker = `${file}.instance`;
  // Written before the store opens: on a fresh clone the default ./data does not exist yet.
  makeStoreFolder(file);
  let warning: string | null = null;
  if (existsSync(/*turbopackIgnore: true*/ marker)) {
    const [otherPid, otherId] = readFileSync(/*turbopackIgnore: true*/ marker, "utf8").trim().split(" ");
    const other = Number(otherPid);
    if (Number.isInteger(other) && other !== pid && isRunning(other)) {
      warning = `Another Gatehouse process (${otherId ?? other}, pid ${other}) uses the same SQLite store ${file}: two instances on one SQLite file do not share limits, cache, breakers or jobs, and compete for its write lock. Run one instance per SQLite file, or use PostgreSQL (DATABASE_URL) and Redis (REDIS_URL) for several.`;
    }
  }
  writeFileSync(/*turbopackIgnore: true*/ marker, `${pid} ${id}\n`, { mode: 0o600 });
  return warning;
}

export function startInstance(config: Config): Cluster {
  const cluster = startCluster(config.redisUrl);
  const target = storeTarget();
  if (target.dialect === "sqlite" && target.path !== ":memory:") {
    const warning = claimSqliteFile(target.path);
    if (warning) logEvent("warn", warning, { startup_warning: true });
    onShutdown("store marker", () => {
      const marker = `${target.path}.instance`;
      if (
        existsSync(/*turbopackIgnore: true*/ marker) &&
        readFileSync(/*turbopackIgnore: true*/ marker, "utf8").startsWith(`${process.pid} `)
      )
        rmSync(/*turbopackIgnore: true*/ marker, { force: true });
    });
  } else if (target.dialect === "postgres" && !config.redisUrl) {
    logEvent(
      "warn",
      "The store is PostgreSQL but REDIS_URL is not set: if this is one of several instances, each keeps its own rate limits, cache, circuit breakers and job runner. Set REDIS_URL on every instance to share them.",
      { startup_warning: true },
    );
  }
  return cluster;
}
