// A server whose log pipe closes keeps serving, at its usual CPU: `npm start` (the production build) with stdout
// and stderr on pipes whose reader then goes away, as under `npm start | head` when head exits. The CPU time of
// the whole process tree over a fixed number of requests is compared with the same requests before the pipes
// closed: no error loop. Where a stream still works, the server says once that the other one's lines are lost.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CANARY } from "@/tests/support/canary";
import { npmStartGateway } from "@/tests/support/gateway";
import type { Spawned } from "@/tests/support/processes";
import { killSurvivors, treeCpuTicks, treePids } from "@/tests/support/proc";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { until } from "@/tests/support/until";

const REQUESTS = 40;

let cwd: string;
let sandbox: TestSandbox;
let server: Spawned;
let url: string;

beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), "gatehouse-log-pipe-"));
  sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } });
  ({ server, url } = await npmStartGateway(cwd, sandbox));
}, 120_000);

afterAll(async () => {
  // A server whose log pipes were closed may lose the process between npm start and itself: stop them all.
  const pids = server?.child.pid ? treePids(server.child.pid) : [];
  await server?.stop();
  killSurvivors(pids);
  await sandbox?.close();
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

/** The CPU time (clock ticks) the server's process tree spends on REQUESTS health checks, one after another. */
async function cpuOfRequests(): Promise<number> {
  const before = treeCpuTicks(server.child.pid!);
  for (let i = 0; i < REQUESTS; i++) {
    // Each request writes its log line: on a closed stdout, each is a failed write.
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(15_000) });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  }
  return treeCpuTicks(server.child.pid!) - before;
}

const lostNotices = () =>
  server
    .stderr()
    .split("\n")
    .filter((line) => line.includes('"event":"log_stream_lost"'));

describe("npm start with its log pipes closing", () => {
  it("keeps answering at its usual CPU, and says once, on the stream still read, that the other's lines are lost", async () => {
    await cpuOfRequests(); // warm up: the first requests compile and cache what later ones reuse
    const baseline = await cpuOfRequests();

    // stdout's reader goes; stderr is still read.
    server.child.stdout!.destroy();
    await cpuOfRequests();
    const [notice, ...more] = await until(
      () => (lostNotices().length > 0 ? lostNotices() : null),
      "the notice on stderr",
      15_000,
    );
    expect(more).toEqual([]);
    expect(JSON.parse(notice!)).toMatchObject({ level: "error", event: "log_stream_lost", stream: "stdout" });

    // Then stderr's reader goes too: nowhere left to say anything, and nothing to spend CPU on.
    server.child.stderr!.destroy();
    const closed = await cpuOfRequests();
    const closedAgain = await cpuOfRequests();
    // Clock ticks are 10 ms: allow the baseline twice over plus 0.3 s; an error loop burns a tick every 10 ms.
    expect(closed, `baseline ${baseline} ticks`).toBeLessThanOrEqual(2 * baseline + 30);
    expect(closedAgain, `baseline ${baseline} ticks`).toBeLessThanOrEqual(2 * baseline + 30);
    expect(lostNotices()).toHaveLength(1);
  }, 120_000);
});
