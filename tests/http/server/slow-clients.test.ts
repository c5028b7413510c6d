// A client that trickles its request cannot hold the server: `npm start` (the production build) with small
// HTTP_HEADERS_TIMEOUT_MS and HTTP_REQUEST_TIMEOUT_MS, over a raw socket that sends a byte at a time. The server
// answers 408 and closes the connection once the time is up — with Node's defaults it would wait 60 s for the
// headers and 300 s for the body, past this test's own limit. The test waits for the close, never for a duration.
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CANARY } from "@/tests/support/canary";
import { npmStartGateway, TEST_ADMIN } from "@/tests/support/gateway";
import type { Spawned } from "@/tests/support/processes";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

let cwd: string;
let sandbox: TestSandbox;
let server: Spawned;
let port: number;

beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), "gatehouse-slow-clients-"));
  sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } });
  ({ server, port } = await npmStartGateway(cwd, sandbox, {
    HTTP_HEADERS_TIMEOUT_MS: "1000",
    HTTP_REQUEST_TIMEOUT_MS: "2000",
  }));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

/**
 * Opens a connection, sends `start`, then one more byte of `trickle` every 100 ms for as long as the server keeps
 * the connection; resolves with everything the server sent once it closed the connection.
 */
function trickle(start: string, drip: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.writable && sent < drip.length) socket.write(drip[sent++]!);
    }, 100);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("error", () => {}); // a reset after the answer is a close too
    socket.on("close", () => {
      clearInterval(timer);
      if (sent >= drip.length) reject(new Error(`the server waited for the whole trickle: ${received}`));
      else resolve(received);
    });
    socket.write(start);
  });
}

describe("a client that trickles its request", () => {
  it("gets 408 and a closed connection once HTTP_REQUEST_TIMEOUT_MS is up, while the body is still coming", async () => {
    const body = JSON.stringify({ email: TEST_ADMIN.email, password: "x".repeat(400) });
    const head = [
      "POST /api/auth/login HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      "Content-Type: application/json",
      "X-CSRF: 1",
      `Content-Length: ${body.length}`,
      "",
      "",
    ].join("\r\n");
    // About 43 s to send it all at this pace: the server must cut it off long before.
    const answer = await trickle(head, body);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 30_000);

  it("gets 408 and a closed connection once HTTP_HEADERS_TIMEOUT_MS is up, while the headers are still coming", async () => {
    const answer = await trickle(
      `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`,
      `X-Slow: ${"a".repeat(300)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 30_000);

  it("still answers a client that sends its request at once", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.status).toBe(200);
  });
});
