// Which host names the portal serves, over real HTTP with the Host header a browser would send. Demo mode serves
// loopback names only: a page on rebind.attacker.example whose name resolves to 127.0.0.1 (DNS rebinding) is
// refused with 421 — sign-in, the admin API and pages alike — and the log says so. A configured portal serves
// PUBLIC_ORIGIN's and ALLOWED_HOSTS' names (and loopback ones), and never takes its CSRF origin from another.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DEMO_PASSWORD } from "@/lib/auth/users";

import { CANARY } from "@/tests/support/canary";
import { sandboxEnv, startGateway, type GatewayProcess } from "@/tests/support/gateway";
import { rawRequest, sessionCookie } from "@/tests/support/processes";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

const ATTACKER = "rebind.attacker.example";

function port(gateway: GatewayProcess): string {
  return new URL(gateway.url).port;
}

function signIn(gateway: GatewayProcess, host: string, credentials: { email: string; password: string }) {
  return rawRequest(`${gateway.url}/api/auth/login`, {
    method: "POST",
    headers: { Host: host, Origin: `http://${host}`, "Content-Type": "application/json", "X-CSRF": "1" },
    body: JSON.stringify(credentials),
  });
}

describe("demo mode serves loopback host names only", () => {
  let dataDir: string;
  let gateway: GatewayProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "gatehouse-hosts-"));
    gateway = await startGateway({ GATEHOUSE_DEMO: "1", DEMO_DATA_DIR: dataDir, SANDBOX_PORT: "0" });
  });
  afterAll(async () => {
    await gateway?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const demoAdmin = { email: "admin@demo.test", password: DEMO_PASSWORD };

  it("a page on another name that resolves here cannot sign in: 421, no session, a line in the log", async () => {
    const host = `${ATTACKER}:${port(gateway)}`;
    const res = await signIn(gateway, host, demoAdmin);
    expect(res.status).toBe(421);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: "misdirected_request", message: expect.stringContaining(ATTACKER) },
    });
    expect(sessionCookie(res)).toBeUndefined();
    await expect
      .poll(() => gateway.logLines().filter((line) => line.msg === "host_refused" && line.host === host))
      .toHaveLength(1);
  });

  it("nor use the admin API, even with a session cookie it got some other way", async () => {
    const own = await signIn(gateway, `127.0.0.1:${port(gateway)}`, demoAdmin);
    expect(own.status).toBe(200);
    const cookie = sessionCookie(own)!;
    const host = `${ATTACKER}:${port(gateway)}`;
    const create = await rawRequest(`${gateway.url}/api/admin/users`, {
      method: "POST",
      headers: {
        Host: host,
        Origin: `http://${host}`,
        Cookie: cookie,
        "Content-Type": "application/json",
        "X-CSRF": "1",
      },
      body: JSON.stringify({
        email: "planted@example.com",
        name: "Planted",
        role: "admin",
        password: "planted password 1",
      }),
    });
    expect(create.status).toBe(421);
    const list = await rawRequest(`${gateway.url}/api/admin/users`, { headers: { Host: host, Cookie: cookie } });
    expect(list.status).toBe(421);
    const page = await rawRequest(`${gateway.url}/admin/users`, { headers: { Host: host, Cookie: cookie } });
    expect(page.status).toBe(421);
    expect(page.body).toContain("does not answer to the host name");
    // Nobody was planted.
    const users = await rawRequest(`${gateway.url}/api/admin/users`, {
      headers: { Host: `localhost:${port(gateway)}`, Cookie: cookie },
    });
    expect(users.status).toBe(200);
    expect(users.body).not.toContain("planted@example.com");
  });

  it("serves localhost, 127.0.0.1 and [::1] names, with the origin each implies", async () => {
    for (const host of [
      `localhost:${port(gateway)}`,
      `127.0.0.1:${port(gateway)}`,
      `[::1]:${port(gateway)}`,
      "localhost",
    ]) {
      const res = await signIn(gateway, host, demoAdmin);
      expect(res.status, host).toBe(200);
    }
    // A loopback name with another origin is still a foreign request: the CSRF rule refuses it.
    const foreign = await rawRequest(`${gateway.url}/api/auth/login`, {
      method: "POST",
      headers: {
        Host: `localhost:${port(gateway)}`,
        Origin: `http://${ATTACKER}`,
        "Content-Type": "application/json",
        "X-CSRF": "1",
      },
      body: JSON.stringify(demoAdmin),
    });
    expect(foreign.status).toBe(403);
  });
});

describe("a configured portal", () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it("serves PUBLIC_ORIGIN's and ALLOWED_HOSTS' names and loopback ones, and refuses any other", async () => {
    const gateway = await startGateway(
      sandboxEnv(sandbox, {
        PUBLIC_ORIGIN: "https://portal.example.test",
        ALLOWED_HOSTS: "portal.internal, 10.0.0.5:3000",
      }),
    );
    try {
      const status = async (host: string) =>
        (await rawRequest(`${gateway.url}/api/health`, { headers: { Host: host } })).status;
      expect(await status("portal.example.test")).toBe(200);
      expect(await status("PORTAL.example.test:443")).toBe(200);
      expect(await status("portal.internal:8080")).toBe(200);
      expect(await status("10.0.0.5:3000")).toBe(200);
      expect(await status(`127.0.0.1:${port(gateway)}`)).toBe(200);
      expect(await status("10.0.0.5:3001")).toBe(421);
      expect(await status(ATTACKER)).toBe(421);
      expect(await status("portal.example.test.attacker.example")).toBe(421);
    } finally {
      await gateway.stop();
    }
  });

  it("with ALLOWED_HOSTS and no PUBLIC_ORIGIN, takes the CSRF origin from an allowed name only", async () => {
    const gateway = await startGateway(sandboxEnv(sandbox, { ALLOWED_HOSTS: "portal.internal" }));
    try {
      const admin = { email: "admin@gatehouse.test", password: "admin password for tests" };
      expect((await signIn(gateway, "portal.internal", admin)).status).toBe(200);
      expect((await signIn(gateway, ATTACKER, admin)).status).toBe(421);
    } finally {
      await gateway.stop();
    }
  });

  // Starts its own server and signs in (a password hash): on a loaded machine more than the suite's 20 s per test,
  // which is a ceiling, not what this test asserts.
  it("behind TRUST_PROXY reads X-Forwarded-Host and -Proto at the trusted hop: a client's leftmost values are ignored", async () => {
    const gateway = await startGateway(sandboxEnv(sandbox, { TRUST_PROXY: "1", ALLOWED_HOSTS: "portal.internal" }));
    try {
      const health = (forwardedHost: string) =>
        rawRequest(`${gateway.url}/api/health`, {
          headers: { Host: `127.0.0.1:${port(gateway)}`, "X-Forwarded-Host": forwardedHost },
        });
      expect((await health("portal.internal")).status).toBe(200);
      // The client wrote "portal.internal"; the proxy appended the name it was really sent to.
      expect((await health(`portal.internal, ${ATTACKER}`)).status).toBe(421);
      expect((await health(`${ATTACKER}, portal.internal`)).status).toBe(200);
      // A client's "https" in front of the proxy's "http" does not make https://portal.internal the trusted origin.
      const admin = { email: "admin@gatehouse.test", password: "admin password for tests" };
      const signIn = (proto: string, origin: string) =>
        rawRequest(`${gateway.url}/api/auth/login`, {
          method: "POST",
          headers: {
            Host: "portal.internal",
            "X-Forwarded-Proto": proto,
            Origin: origin,
            "Content-Type": "application/json",
            "X-CSRF": "1",
          },
          body: JSON.stringify(admin),
        });
      expect((await signIn("https, http", "https://portal.internal")).status).toBe(403);
      expect((await signIn("https, http", "http://portal.internal")).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  }, 60_000);
});
