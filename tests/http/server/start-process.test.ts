// What `npm start` keeps running: the Next.js server and nothing else of its own. Run through npm itself, as an
// operator does: once the server answers, below npm there is at most the shell npm runs the script with, and one
// process, the one listening: no tsx parent passing signals on, no esbuild, no check process left over. A
// supervisor's SIGTERM to that process shuts it down gracefully (lib/lifecycle/shutdown.ts), and npm ends with its
// exit code, 0.
import { realpathSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CANARY } from "@/tests/support/canary";
import { npmStartEnv } from "@/tests/support/gateway";
import { assertBuilt, freePort, ROOT, spawnCommand, untilHealthy, type Spawned } from "@/tests/support/processes";
import { executable, killSurvivors, listenerOf, treePids } from "@/tests/support/proc";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

let cwd: string;
let sandbox: TestSandbox;
let npm: Spawned;
let port: number;

beforeAll(async () => {
  assertBuilt();
  cwd = await mkdtemp(path.join(tmpdir(), "gatehouse-start-process-"));
  sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } });
  port = await freePort();
  // npm runs the script in the project's folder: the store goes to the test's folder by name.
  npm = spawnCommand("npm", ["start"], {
    cwd: ROOT,
    env: { ...npmStartEnv(cwd, sandbox, port), npm_config_update_notifier: "false" },
  });
  await untilHealthy(`http://127.0.0.1:${port}`, npm);
}, 120_000);

afterAll(async () => {
  // npm does not pass a lone SIGTERM on (docs/operations.md): every process of its tree gets one, and a SIGKILL if
  // the tree has not ended 15 s later (npm's pipes close when the last of them ends).
  const running = npm?.child.pid !== undefined && npm.child.exitCode === null && npm.child.signalCode === null;
  const pids = running ? treePids(npm.child.pid!) : [];
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already ended
    }
  }
  const timer = setTimeout(() => killSurvivors(pids), 15_000);
  await npm?.exited;
  clearTimeout(timer);
  await sandbox?.close();
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

describe("npm start", () => {
  it("keeps one process running below npm (and its shell): the server, which a SIGTERM ends with exit code 0", async () => {
    const below = treePids(npm.child.pid!).filter((pid) => pid !== npm.child.pid);
    const server = listenerOf(port, below);
    expect(server, `no process below npm listens on ${port}`).not.toBeNull();
    const shell = realpathSync("/bin/sh");
    const others = below.filter((pid) => pid !== server && executable(pid) !== shell);
    expect(others.map((pid) => `${pid} ${executable(pid)}`)).toEqual([]);
    expect(path.basename(executable(server!) ?? "")).toMatch(/^node/);

    process.kill(server!, "SIGTERM");
    expect(await npm.exited).toBe(0);
    expect(npm.logLines()).toContainEqual(
      expect.objectContaining({ level: "info", msg: "shutdown complete", event: "shutdown" }),
    );
    expect(npm.stderr()).not.toMatch(/^\s+at /m);
  }, 30_000);
});
