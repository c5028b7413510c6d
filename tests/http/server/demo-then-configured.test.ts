// The newcomer's path, in one working directory: the demo first, then a configured `npm start` on the default
// store. The demo is a world of its own (./data/demo): its accounts, its public password and anything made while
// it ran never reach the configured store, where the operator's ADMIN_EMAIL is the admin. A store that does hold
// demo accounts is refused, in one line with the command that fixes it; that command works.
import { copyFile, mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DEMO_PASSWORD } from "@/lib/auth/users";

import { CANARY } from "@/tests/support/canary";
import { freePort } from "@/tests/support/processes";
import { assertBuilt, demoServer, npmStart, untilHealthy, usersCli, type Spawned } from "@/tests/support/processes";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

const SECRET = "Q8x2kLr0v9ZpA1nB7cD3eF5gH6jK4mN0pQ2rS8tU1vW=";
const OPERATOR = { email: "ops@example.com", password: "the operator's own passphrase" };
const INTRUDER = { email: "intruder@example.com", password: "made while the demo ran" };

let cwd: string;
let sandbox: TestSandbox;
const running: Spawned[] = [];

beforeAll(async () => {
  assertBuilt();
  cwd = await mkdtemp(path.join(tmpdir(), "gatehouse-newcomer-"));
  sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } });
});
afterAll(async () => {
  for (const each of running) await each.stop();
  await sandbox?.close();
  await rm(cwd, { recursive: true, force: true });
});

function signIn(url: string, credentials: { email: string; password: string }): Promise<Response> {
  return fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF": "1" },
    body: JSON.stringify(credentials),
  });
}

function configured(env: Record<string, string> = {}): Record<string, string> {
  return {
    HOST: "127.0.0.1",
    REPORTS_API_BASE_URL: sandbox.reportsBaseUrl,
    REPORTS_API_KEY: CANARY.reports,
    ITEMS_API_BASE_URL: sandbox.itemsBaseUrl,
    ITEMS_API_KEY: CANARY.items,
    SESSION_SECRET: SECRET,
    PURCHASE_CODE_HASH_KEY: SECRET.split("").reverse().join(""),
    ADMIN_EMAIL: OPERATOR.email,
    ADMIN_PASSWORD: OPERATOR.password,
    ...env,
  };
}

async function started(spawned: Spawned, port: number): Promise<string> {
  running.push(spawned);
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(url, spawned);
  return url;
}

// Each test starts two or three servers one after another and signs in to each (a password hash each time): on a
// loaded machine that takes longer than the suite's 20 s per test, which is a ceiling, not what these tests assert.
const SERVERS_ONE_AFTER_ANOTHER_MS = 90_000;

describe("the demo, then a configured start in the same working directory", () => {
  it(
    "keeps the demo's accounts out of the configured store; the configured ADMIN_EMAIL is the admin",
    async () => {
      // 1. The demo: its admin signs in with the published password, and makes one more admin.
      const demoPort = await freePort();
      const demo = demoServer(cwd, demoPort, { SANDBOX_PORT: "0" });
      const demoUrl = await started(demo, demoPort);
      const demoAdmin = await signIn(demoUrl, { email: "admin@demo.test", password: DEMO_PASSWORD });
      expect(demoAdmin.status).toBe(200);
      const cookie = demoAdmin.headers.getSetCookie()[0]!.split(";")[0]!;
      const made = await fetch(`${demoUrl}/api/admin/users`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF": "1", Cookie: cookie },
        body: JSON.stringify({ ...INTRUDER, name: "Made in the demo", role: "admin" }),
      });
      expect(made.status).toBe(201);
      await demo.stop();

      // Everything the demo wrote is under ./data/demo.
      expect((await readdir(path.join(cwd, "data"))).sort()).toEqual(["demo"]);
      expect((await readdir(path.join(cwd, "data", "demo"))).sort()).toEqual(
        expect.arrayContaining(["gatehouse.db", "kek", "sandbox", "session-secret"]),
      );

      // 2. A configured `npm start` on the default store, same working directory.
      const port = await freePort();
      const url = await started(npmStart(cwd, configured({ PORT: String(port) })), port);
      expect((await signIn(url, { email: "admin@demo.test", password: DEMO_PASSWORD })).status).toBe(401);
      expect((await signIn(url, INTRUDER)).status).toBe(401);
      const operator = await signIn(url, OPERATOR);
      expect(operator.status).toBe(200);
      expect(((await operator.json()) as { data: { user: { role: string } } }).data.user.role).toBe("admin");

      // The default store is ./data/gatehouse.db, private.
      expect((await stat(path.join(cwd, "data", "gatehouse.db"))).mode & 0o777).toBe(0o600);
      expect((await stat(path.join(cwd, "data"))).mode & 0o777).toBe(0o700);
      await running.pop()!.stop();
    },
    SERVERS_ONE_AFTER_ANOTHER_MS,
  );

  it(
    "refuses a store that holds demo accounts, naming the command that fixes it; after it, the start works",
    async () => {
      // A store an older Gatehouse shared between the demo and a configured start: here, the demo's own.
      const shared = path.join(cwd, "shared");
      await mkdir(shared);
      await copyFile(path.join(cwd, "data", "demo", "gatehouse.db"), path.join(shared, "gatehouse.db"));
      const env = configured({ DATABASE_URL: path.join(shared, "gatehouse.db") });

      const refused = npmStart(cwd, { ...env, PORT: String(await freePort()) });
      running.push(refused);
      expect(await refused.exited).toBe(1);
      const lines = refused.stderr().trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^The store \.\/shared\/gatehouse\.db holds demo accounts \(admin@demo\.test, editor@demo\.test, support@demo\.test, viewer@demo\.test: a @demo\.test address or the published demo password\), which anyone can sign in with; a configured Gatehouse does not start on it\. Remove them with: npm run users -- remove-demo-accounts$/,
      );

      const removal = usersCli(cwd, ["remove-demo-accounts"], { DATABASE_URL: env.DATABASE_URL });
      expect(await removal.exited, removal.stderr()).toBe(0);
      expect(removal.stdout()).toContain("Removed admin@demo.test (demo address).");
      expect(removal.stdout()).toContain("review them with: npm run users -- list");

      // The store has users (the one made in the demo), so ADMIN_EMAIL creates nobody: said at start.
      const port = await freePort();
      const again = npmStart(cwd, { ...env, PORT: String(port) });
      const url = await started(again, port);
      expect((await signIn(url, { email: "admin@demo.test", password: DEMO_PASSWORD })).status).toBe(401);
      expect(again.logLines()).toContainEqual(
        expect.objectContaining({
          level: "warn",
          msg: expect.stringMatching(
            /^ADMIN_EMAIL ops@example\.com is not a user of this store, .* npm run users -- create --email ops@example\.com/,
          ),
        }),
      );
      await again.stop();
    },
    SERVERS_ONE_AFTER_ANOTHER_MS,
  );
});
