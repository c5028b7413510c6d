// Graceful shutdown of a real `next start`: SIGTERM while a request waits on a slow upstream. The process stops
// accepting connections, lets that request finish, closes what it opened, and exits 0.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { afterAll, afterEach, beforeAll, expect, it } from "vitest";

import { sandboxEnv, TEST_ADMIN, TEST_SESSION_SECRET } from "@/tests/support/gateway";
import { assertBuilt, freePort, nextStart, ROOT, untilHealthy, type Spawned } from "@/tests/support/processes";
import { waitForUpstreamCalls } from "@/tests/support/resilience";
import type { TestSandbox } from "@/tests/support/sandbox";
import { startCanarySandbox } from "@/tests/support/sandbox";

let sandbox: TestSandbox;
let storeDir: string;
let next: (Spawned & { url: string }) | undefined;

beforeAll(async () => {
  assertBuilt();
  sandbox = await startCanarySandbox();
  storeDir = await mkdtemp(path.join(tmpdir(), "gatehouse-shutdown-"));
});
afterEach(async () => {
  // SIGKILL if the test left it running: this file sends the signals itself.
  if (next && next.child.exitCode === null && next.child.signalCode === null) next.child.kill("SIGKILL");
  await next?.exited;
});
afterAll(async () => {
  await sandbox?.close();
  await rm(storeDir, { recursive: true, force: true });
});

/** `next start` that this test signals itself, with the accounts every configured start needs. */
async function startNext(env: Record<string, string | undefined>): Promise<Spawned & { url: string }> {
  const port = await freePort();
  const accounts = {
    SESSION_SECRET: TEST_SESSION_SECRET,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    DATABASE_URL: path.join(storeDir, `${port}.db`),
  };
  const server = nextStart(ROOT, port, { ...accounts, ...env });
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(url, server);
  return { ...server, url };
}

it("SIGTERM during a slow request: no new connections, the request completes, exit 0", async () => {
  next = await startNext(sandboxEnv(sandbox));
  const { url } = next;
  // /api/ready asks both areas; area A's answer is held back 1.5 s.
  await sandbox.clearRequests();
  await sandbox.injectFault({ path: "/seo/api/v1/projects", kind: "latency", latencyMs: 1500 });
  const slow = fetch(`${url}/api/ready`).then(async (res) => ({
    status: res.status,
    body: (await res.json()) as { status: string },
  }));

  // Signal only once the request is inside the gateway, waiting on the upstream.
  await waitForUpstreamCalls(sandbox, "GET", "/seo/api/v1/projects");
  next.child.kill("SIGTERM");

  // The listening socket closes at once: a new connection is refused while the slow request still runs.
  let refused = false;
  for (let i = 0; i < 50 && !refused; i++) {
    refused = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) }).then(
      () => false,
      () => true,
    );
    if (!refused) await sleep(20);
  }
  expect(refused).toBe(true);

  const answer = await slow;
  expect(answer.status).toBe(503); // it finished, and readiness says "draining"
  expect(answer.body).toMatchObject({ status: "not_ready", shutting_down: true });
  expect(await next.exited).toBe(0);
  // The slow request is in flight; others may be too (the start-up health polls a slow machine left open), so
  // the count is at least 1, not exactly 1.
  const drain = logLine(next, "SIGTERM: shutting down");
  expect(drain).toMatchObject({ event: "shutdown", in_flight: expect.any(Number) });
  expect(drain?.in_flight).toBeGreaterThanOrEqual(1);
  expect(logLine(next, "shutdown complete")).toMatchObject({
    closed: [
      "audit log pruning",
      "notification sweep",
      "report history",
      "bulk purchase checks",
      "webhook sweep",
      "jobs (store)",
      "store marker",
      "database",
    ],
  });
});

it("a request still running after SHUTDOWN_TIMEOUT_MS is cut off, and the process still exits 0", async () => {
  next = await startNext(sandboxEnv(sandbox, { SHUTDOWN_TIMEOUT_MS: "1000", UPSTREAM_TIMEOUT_MS: "60000" }));
  await sandbox.clearRequests();
  await sandbox.injectFault({ path: "/seo/api/v1/projects", kind: "hang" });
  const hung = fetch(`${next.url}/api/ready`).then(
    (res) => res.status,
    () => "cut off",
  );
  await waitForUpstreamCalls(sandbox, "GET", "/seo/api/v1/projects");
  next.child.kill("SIGTERM");
  expect(await next.exited).toBe(0);
  expect(await hung).toBe("cut off");
  const cutOff = logLine(next, "request(s) still running after 1000 ms are cut off");
  expect(cutOff).toMatchObject({ level: "warn", in_flight: expect.any(Number) });
  expect(cutOff?.in_flight).toBeGreaterThanOrEqual(1);
  await sandbox.clearFaults();
});

/** The first structured log line whose message contains `text`. */
function logLine(process: Spawned, text: string): Record<string, unknown> | undefined {
  return process.logLines().find((line) => typeof line.msg === "string" && line.msg.includes(text));
}
