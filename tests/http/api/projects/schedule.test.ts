// A project's scheduled regeneration over real HTTP (next start ↔ sandbox): the schedule validated and stored with
// its next run (audited), a run started by hand regenerating every report of the project with its progress and
// outcome on the project, a run skipped — saying why — while area A's circuit breaker is open, and runs started
// at once on several projects sharing one budget, waiting for it and saying so. (A schedule firing at its time
// with a test clock, and the budget across instances: tests/unit/lib/reports/schedule-runner.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { sandboxEnv, startGateway, type GatewayProcess } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { until } from "@/tests/support/until";
import { busiestWindow } from "@/tests/support/windows";

const PROJECT = "harbor-dental.com"; // 12 reports in the sandbox
const path = (rest = "") => `/api/projects/${encodeURIComponent(PROJECT)}/schedule${rest}`;
const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

const {
  sandbox,
  gateway,
  client: editor,
} = setUpGateway({
  signIn: "editor",
  env: {
    // A run may spend the whole of a large budget, so it ends in well under a second.
    REPORTS_API_CALLS_PER_MINUTE: "60000",
    REPORT_SCHEDULE_MAX_SHARE: "1",
    // One failure opens area A's breaker for ten minutes.
    UPSTREAM_BREAKER_FAILURES: "1",
    UPSTREAM_BREAKER_OPEN_MS: "600000",
  },
});

describe("the schedule", () => {
  it("is none at first, with the budget a run may spend", async () => {
    const res = await editor.request(path());
    expect(res.json.data).toEqual({ schedule: null, runs: [], max_share: 1, calls_per_minute: 60000 });
  });

  it("refuses an unknown zone, a bad time and a weekly schedule without its day, naming each field", async () => {
    const res = await editor.request(
      path(),
      json({ enabled: true, frequency: "weekly", time: "25:00", time_zone: "Mars/Olympus" }),
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.error.fields).sort()).toEqual(["time", "time_zone", "weekday"]);
    expect(res.json.error.fields.time_zone).toContain("IANA time zone name");
  });

  it("stores a weekly schedule with its next run in the zone, audited", async () => {
    const res = await editor.request(
      path(),
      json({ enabled: true, frequency: "weekly", weekday: 1, time: "06:30", time_zone: "America/New_York" }),
    );
    expect(res.status).toBe(200);
    const { next_run_at } = res.json.data;
    expect(res.json.data).toMatchObject({
      project: PROJECT,
      enabled: true,
      weekday: 1,
      time: "06:30",
      time_zone: "America/New_York",
      updated_by: editor.user.email,
    });
    // A Monday, 06:30 in New York (11:30 or 10:30 UTC by the season), in the future.
    const next = new Date(next_run_at);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(
      new Intl.DateTimeFormat("en-US", {
        timeZone: "America/New_York",
        weekday: "long",
        hour: "2-digit",
        minute: "2-digit",
        hour12: false,
      }).format(next),
    ).toBe("Monday 06:30");
    const admin = await gateway.signIn("admin");
    const audit = (await admin.request("/api/admin/audit?action=project.schedule_update")).json.data;
    expect(audit[0]).toMatchObject({
      target: { type: "project", id: PROJECT },
      detail: { frequency: "weekly", time_zone: "America/New_York" },
    });
  });
});

describe("a run", () => {
  it("started by hand regenerates every report of the project, its progress and outcome on the project", async () => {
    await sandbox.clearRequests();
    const started = await editor.request(path("/runs"), { method: "POST" });
    expect(started.status).toBe(202);
    expect(started.json.data).toMatchObject({ project: PROJECT, trigger: "manual", status: "running" });
    await expect.poll(async () => (await editor.request(path())).json.data.runs[0].status).toBe("done");
    const [run] = (await editor.request(path())).json.data.runs;
    expect(run).toMatchObject({
      id: started.json.data.id,
      total: 12,
      done: 12,
      failed: 0,
      outcome: "Regenerated all 12 reports.",
    });
    const calls = await sandbox.requests();
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(12);
    // What the run saw is in the history.
    const reportId = Number(
      calls
        .find((c) => c.method === "PUT")!
        .path.split("/")
        .pop(),
    );
    const history = (await editor.request(`/api/reports/${reportId}/history`)).json.data;
    expect(history.entries[0]).toMatchObject({ source: "schedule" });
  });

  it("is skipped while area A's breaker is open, and says so", async () => {
    await sandbox.injectFault({ path: "/seo/api/v1/reports", kind: "status", status: 503, times: 1 });
    expect((await editor.request("/api/reports")).status).toBe(502); // the upstream's 503, passed on as a bad gateway
    await sandbox.clearRequests();
    const started = await editor.request(path("/runs"), { method: "POST" });
    expect(started.status).toBe(202);
    await expect.poll(async () => (await editor.request(path())).json.data.runs[0].status).toBe("skipped");
    expect((await editor.request(path())).json.data.runs[0].outcome).toContain("circuit breaker for it is open");
    expect(await sandbox.requests()).toEqual([]);
  });

  it("can be removed, and a viewer may read but not change it", async () => {
    const viewer = await gateway.signIn("viewer");
    expect((await viewer.request(path())).status).toBe(200);
    expect((await viewer.request(path("/runs"), { method: "POST" })).status).toBe(403);
    expect((await editor.request(path(), { method: "DELETE", headers: { "X-CSRF": "1" } })).status).toBe(204);
    expect((await editor.request(path())).json.data.schedule).toBeNull();
  });
});

describe("runs started at once on several projects", () => {
  let shared: GatewayProcess;
  beforeAll(async () => {
    // 60 calls a minute for all scheduled work: a call a second.
    shared = await startGateway(
      sandboxEnv(sandbox, { REPORTS_API_CALLS_PER_MINUTE: "120", REPORT_SCHEDULE_MAX_SHARE: "0.5" }),
    );
  });
  afterAll(async () => {
    await shared?.stop();
  });

  it("share one budget: they wait for it, saying so on their project, and together keep its pace", async () => {
    const client = await shared.signIn("editor");
    const projects = ["harbor-dental.com", "pixelforge.studio", "atlas-legal.fr"];
    const schedule = (project: string) => `/api/projects/${encodeURIComponent(project)}/schedule`;
    await sandbox.clearRequests();
    for (const project of projects)
      expect((await client.request(`${schedule(project)}/runs`, { method: "POST" })).status).toBe(202);

    const statuses = async () =>
      Promise.all(projects.map(async (project) => (await client.request(schedule(project))).json.data.runs[0]));
    const waiting = await until(
      async () => (await statuses()).find((run) => run.status === "waiting"),
      "a run waiting for the budget",
      20_000,
      100,
    );
    expect(waiting).toMatchObject({ status: "waiting", outcome: null, finished_at: null });

    const calls = await until(
      async () => {
        const seen = await sandbox.requests();
        return seen.length >= 15 && seen;
      },
      "15 calls of the runs",
      60_000,
      200,
    );
    // A call a second at most: any 10 s hold at most 10, 11 when one call's way to the sandbox was slower than the
    // next one's. (Each run with a pace of its own made three a second.)
    expect(
      busiestWindow(
        calls.map((call) => Date.parse(call.at)),
        10_000,
      ),
    ).toBeLessThanOrEqual(11);
  }, 90_000);
});
