// The README's promise: `npm ci && npm run build && npm start` works on a fresh clone, whose default store
// ./data/gatehouse.db lives in a folder that does not exist yet. `npm start` (the production build) in an empty
// working folder, DATABASE_URL unset: the server answers, and ./data was made owner-only with the store in it.
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CANARY } from "@/tests/support/canary";
import { npmStartGateway } from "@/tests/support/gateway";
import type { Spawned } from "@/tests/support/processes";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

let cwd: string;
let sandbox: TestSandbox;
let server: Spawned;
let url: string;

beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), "gatehouse-fresh-"));
  sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } });
  ({ server, url } = await npmStartGateway(cwd, sandbox, { DATABASE_URL: undefined }));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

describe("npm start in a fresh folder with the default store", () => {
  it("makes ./data owner-only, opens the store there, and answers", async () => {
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect((await stat(path.join(cwd, "data"))).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(cwd, "data", "gatehouse.db"))).isFile()).toBe(true);
    expect(server.lines().join("\n")).not.toContain("ENOENT");
  });
});
