// Graceful shutdown of a real `next start`: SIGTERM while a request waits on a slow upstream. The process stops
// accepting connections, lets that request finish, closes what it opened, and exits 0.
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";

import { sandboxEnv } from "../support/gateway";
import type { TestSandbox } from "../support/sandbox";

import { startNext, type NextProcess } from "./next-process";
import { startSandboxWithCanaryKeys, waitForUpstreamCalls } from "./support";

let sandbox: TestSandbox;
let next: NextProcess | undefined;

beforeAll(async () => {
  sandbox = await startSandboxWithCanaryKeys();
});
afterEach(async () => {
  await next?.kill();
});
afterAll(async () => {
  await sandbox?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("SIGTERM during a slow request: no new connections, the request completes, exit 0", async () => {
  next = await startNext(sandboxEnv(sandbox) as Record<string, string>);
  const { url } = next;
  // /api/ready asks both areas; area A's answer is held back 1.5 s.
  await sandbox.clearRequests();
  await sandbox.injectFault({ path: "/seo/api/v1/projects", kind: "latency", latencyMs: 1500 });
  const slow = fetch(`${url}/api/ready`).then(async (res) => ({ status: res.status, body: (await res.json()) as { status: string } }));

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
  expect(logLine(next, "shutdown complete")).toMatchObject({ closed: ["bulk purchase checks", "database"] });
});

it("a request still running after SHUTDOWN_TIMEOUT_MS is cut off, and the process still exits 0", async () => {
  next = await startNext(sandboxEnv(sandbox, { SHUTDOWN_TIMEOUT_MS: "1000", UPSTREAM_TIMEOUT_MS: "60000" }) as Record<string, string>);
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
function logLine(process: NextProcess, text: string): Record<string, unknown> | undefined {
  for (const line of process.output()) {
    if (!line.startsWith("{")) continue;
    const parsed = JSON.parse(line) as Record<string, unknown>;
    if (typeof parsed.msg === "string" && parsed.msg.includes(text)) return parsed;
  }
  return undefined;
}
