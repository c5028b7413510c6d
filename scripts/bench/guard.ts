// `npm run bench:guard` (by hand before merging a change on the request path; it left `npm test` on 2026-11-28 to
// keep CI under its 25 minutes): the short form of `npm run bench`'s comparison with the framework floor, so that a
// route that gets dearer fails the day it lands. It loads the floor's
// GET /api/ping, GET /api/health and the signed-in, cached GET /api/reports?per_page=25 in turns (a warm-up, then
// 3 rounds of 3 s at 20 connections), prints the table and exits 1 when a route's CPU per request, as a ratio to
// the floor's, is under its bar (GUARD_BARS in ./against-floor.ts). It never judges an absolute time: a slower
// machine slows the floor too.
//
// It uses the tests' build of the portal (tests/support/build.ts: `npm run test:unit` has just made or checked it,
// NEXT_DIST_DIR honoured) and builds only the floor, when stale (lighthouse then reuses it). About 50 s on 2 cores,
// 30 s more when the floor must be built.
import { startFrameworkFloor } from "../framework-floor";

import {
  cachedListTarget,
  floorTable,
  floorTarget,
  GUARD_BARS,
  healthTarget,
  measureAgainstFloor,
  missedBars,
} from "./against-floor";
import { ensurePortalBuild, say, startPortal, startSandboxProcess } from "./processes";

const PLAN = { rounds: 3, seconds: 3, warmupSeconds: 2, connections: 20 };

async function main(): Promise<number> {
  const started = Date.now();
  ensurePortalBuild();
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const floor = await startFrameworkFloor((line) => say(`bench:guard: ${line}`));
    cleanups.push(() => floor.stop());
    const sandbox = await startSandboxProcess();
    cleanups.push(() => sandbox.stop());
    const portal = await startPortal(sandbox, {}, "cache on");
    cleanups.push(() => portal.stop());
    say(
      `bench:guard: ${PLAN.rounds} rounds of ${PLAN.seconds} s at ${PLAN.connections} connections, after ${PLAN.warmupSeconds} s of warm-up each`,
    );
    const measured = await measureAgainstFloor(
      [floorTarget(floor), healthTarget(portal), cachedListTarget(portal)],
      PLAN,
    );
    console.log(`\n${floorTable(measured, GUARD_BARS, "bar")}\n`);
    const missed = missedBars(measured, GUARD_BARS);
    for (const line of missed)
      console.log(
        `FAIL ${line} (CPU per request, ratio to the framework floor; bars: GUARD_BARS in scripts/bench/against-floor.ts)`,
      );
    say(`bench:guard: done in ${Math.round((Date.now() - started) / 1000)} s`);
    return missed.length === 0 ? 0 : 1;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:guard: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
