// State across restarts (the data file, reset), the deterministic seed, and the CLI as a newcomer runs it.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES, SANDBOX_KEYS } from "@/lib/sandbox";
import { seedReports, seedSellers } from "@/lib/sandbox/seed";
import { startTestSandbox } from "@/tests/support/sandbox";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gatehouse-sandbox-state-"));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${SANDBOX_KEYS.reports}` };

async function total(baseUrl: string, what: "reports" | "projects", query = ""): Promise<number> {
  const res = await fetch(`${baseUrl}/api/v1/${what}?${query}`, { headers: auth });
  return ((await res.json()) as { meta: { total: number } }).meta.total;
}

async function changeSomeState(baseUrl: string): Promise<number> {
  const created = await fetch(`${baseUrl}/api/v1/reports`, {
    method: "POST",
    headers: auth,
    body: new URLSearchParams({ url: "https://kept.example/" }),
  });
  await fetch(`${baseUrl}/api/v1/projects/my%20shop`, { method: "DELETE", headers: auth });
  await fetch(`${baseUrl}/api/v1/reports/1`, {
    method: "PATCH",
    headers: auth,
    body: new URLSearchParams({ privacy: "2", password: "pw" }),
  });
  return ((await created.json()) as { data: { id: number } }).data.id;
}

describe("state", () => {
  it("survives a restart on the same data dir, and ids keep counting", async () => {
    const first = await startTestSandbox({ dataDir });
    const createdId = await changeSomeState(first.reportsBaseUrl);
    await first.close(); // flushes the debounced write

    const second = await startTestSandbox({ dataDir });
    try {
      const kept = await fetch(`${second.reportsBaseUrl}/api/v1/reports/${createdId}`, { headers: auth });
      expect(kept.status).toBe(200);
      expect(await total(second.reportsBaseUrl, "projects", "search=my%20shop")).toBe(0);
      const one = (await (await fetch(`${second.reportsBaseUrl}/api/v1/reports/1`, { headers: auth })).json()) as {
        data: { privacy: number };
      };
      expect(one.data.privacy).toBe(2);
      const next = await fetch(`${second.reportsBaseUrl}/api/v1/reports`, {
        method: "POST",
        headers: auth,
        body: new URLSearchParams({ url: "https://next.example/" }),
      });
      expect(((await next.json()) as { data: { id: number } }).data.id).toBe(createdId + 1);
    } finally {
      await second.close();
    }
  });

  it("reseeds with reset: true (the CLI's --reset)", async () => {
    const first = await startTestSandbox({ dataDir });
    await changeSomeState(first.reportsBaseUrl);
    await first.close();

    const second = await startTestSandbox({ dataDir, reset: true });
    try {
      expect(await total(second.reportsBaseUrl, "reports")).toBe(160);
      expect(await total(second.reportsBaseUrl, "projects")).toBe(13);
    } finally {
      await second.close();
    }
  });

  it("writes one state file atomically and leaves no temp files behind", async () => {
    const sandbox = await startTestSandbox({ dataDir });
    await changeSomeState(sandbox.reportsBaseUrl);
    await sandbox.close();
    expect(await readdir(dataDir)).toEqual(["state.json"]);
    const saved = JSON.parse(await readFile(path.join(dataDir, "state.json"), "utf8")) as {
      version: number;
      reports: { reports: unknown[] };
    };
    expect(saved.version).toBe(1);
    expect(saved.reports.reports).toHaveLength(160 - 12 + 1); // "my shop" held 12 seeded reports
  });

  it("reseeds instead of failing when the state file is damaged", async () => {
    await writeFile(path.join(dataDir, "state.json"), '{"version":1,"reports":{"nextRepo');
    const sandbox = await startTestSandbox({ dataDir });
    try {
      expect(await total(sandbox.reportsBaseUrl, "reports")).toBe(160);
    } finally {
      await sandbox.close();
    }
  });
});

describe("seed", () => {
  it("is the same on every call", () => {
    expect(seedReports()).toEqual(seedReports());
    expect(seedSellers()).toEqual(seedSellers());
  });

  it("has at least 150 reports over at least 10 projects, every result and privacy, over 90 days", () => {
    const { reports, projects } = seedReports();
    expect(reports.length).toBeGreaterThanOrEqual(150);
    expect(projects.length).toBeGreaterThanOrEqual(10);
    expect(projects.map((p) => p.project)).toEqual(expect.arrayContaining(["my shop", "café-münchen.de"]));
    expect(new Set(reports.map((r) => r.result))).toEqual(new Set(["good", "decent", "bad"]));
    expect(new Set(reports.map((r) => r.privacy))).toEqual(new Set([0, 1, 2]));
    expect(reports.every((r) => (r.privacy === 2) === (r.password !== null))).toBe(true);
    const generated = reports.map((r) => Date.parse(r.generated_at));
    const spanDays = (Math.max(...generated) - Math.min(...generated)) / 86_400_000;
    expect(spanDays).toBeGreaterThan(75);
    expect(spanDays).toBeLessThanOrEqual(90);
    expect(reports.map((r) => r.id)).toEqual(reports.map((_, i) => i + 1));
  });

  it("gives the main seller at least 24 items and at least 30 UUID purchase codes covering every case", () => {
    const { main, second, empty } = seedSellers();
    expect(main.items.length).toBeGreaterThanOrEqual(24);
    expect(new Set(main.items.map((i) => i.category))).toEqual(new Set(["Scripts", "Video", "Audio"]));
    const purchases = [...main.purchases.values()];
    expect(purchases.length).toBeGreaterThanOrEqual(30);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(purchases.every((p) => uuid.test(p.purchase_code))).toBe(true);
    const now = Date.now();
    expect(purchases.some((p) => p.supported_until && Date.parse(p.supported_until) > now)).toBe(true);
    expect(purchases.some((p) => p.supported_until && Date.parse(p.supported_until) < now)).toBe(true);
    expect(purchases.some((p) => p.supported_until === undefined)).toBe(true);
    expect(new Set(purchases.map((p) => p.downloaded))).toEqual(new Set([true, false]));
    expect(new Set(purchases.map((p) => p.license_type))).toEqual(new Set(["Regular License", "Extended License"]));
    const itemIds = new Set(main.items.map((i) => i.id));
    expect(purchases.every((p) => itemIds.has(p.item.id))).toBe(true);
    expect([...main.purchases.keys()]).toEqual(expect.arrayContaining(Object.values(FIXED_PURCHASE_CODES)));
    expect(second.purchases.size).toBeGreaterThan(0);
    expect([...second.purchases.keys()].some((code) => main.purchases.has(code))).toBe(false);
    expect(empty.items).toEqual([]);
  });

  it("serves 2,000 main-seller items on request, the first ones unchanged", async () => {
    const big = await startTestSandbox({ mainSellerItems: 2000 });
    try {
      const res = await fetch(`${big.itemsBaseUrl}/api/items/all?api_key=${SANDBOX_KEYS.items}`);
      const items = ((await res.json()) as { items: { id: number }[] }).items;
      expect(items).toHaveLength(2000);
      expect(new Set(items.map((i) => i.id)).size).toBe(2000);
      expect(items.slice(0, 30)).toEqual(seedSellers().main.items);
    } finally {
      await big.close();
    }
  });
});

describe("npm run sandbox (the CLI)", () => {
  it("listens where it says, serves both areas and exits 0 on SIGTERM", async () => {
    // Node with tsx's loader, not the tsx command: the command relays a signal to its child process and kills it
    // (exit 143) when the child has not confirmed it within 30 ms — which a loaded machine misses now and then.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "lib/sandbox/cli.ts", "--reset", "--port", "0", "--control", "--data-dir", dataDir],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      let output = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.on("exit", (code) => reject(new Error(`CLI exited ${code} before listening:\n${output}`)));
      });
      expect(output).toContain(SANDBOX_KEYS.reports);
      expect(output).toContain(SANDBOX_KEYS.items);
      expect(output).toContain(FIXED_PURCHASE_CODES.active);

      const reports = await fetch(`${url}/seo/api/v1/reports`, { headers: auth });
      expect(reports.status).toBe(200);
      const account = await fetch(`${url}/market/api/account/details?api_key=${SANDBOX_KEYS.items}`);
      expect(account.status).toBe(200);
      expect((await fetch(`${url}/__sandbox/requests`)).status).toBe(200); // --control

      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(await readdir(dataDir)).toEqual(["state.json"]);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("refuses a bad --port with a message and exit code 2", async () => {
    const tsx = path.join(process.cwd(), "node_modules", ".bin", "tsx");
    const child = spawn(tsx, ["lib/sandbox/cli.ts", "--port", "http", "--data-dir", dataDir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--port must be a port number from 0 to 65535, got "http"');
  });

  it("refuses the variables its flags replaced, naming the flag", async () => {
    const refusal = async (variable: string) => {
      const tsx = path.join(process.cwd(), "node_modules", ".bin", "tsx");
      const child = spawn(tsx, ["lib/sandbox/cli.ts", "--port", "0", "--data-dir", dataDir], {
        env: { ...process.env, [variable]: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      return { code, stderr: stderr.trim() };
    };
    expect(await refusal("SANDBOX_CONTROL")).toEqual({
      code: 2,
      stderr: "sandbox: SANDBOX_CONTROL is no longer read; use --control instead",
    });
    expect(await refusal("SANDBOX_DATA_DIR")).toEqual({
      code: 2,
      stderr: "sandbox: SANDBOX_DATA_DIR is no longer read; use --data-dir DIR instead",
    });
  });
});
