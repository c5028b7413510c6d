// Every change through the gateway's clients drops what it touches, so that a user never sees his own change
// undone by the cache: report create/update/delete → report lists, that report, project lists; project
// delete → project lists, report lists and every single report. Checked against the sandbox's real state.
import { describe, expect, it } from "vitest";

import {
  harness,
  ITEMS,
  reportPath,
  settings,
  upstreamCalls,
  upstreamErrorOf,
  waitForUpstreamCalls,
  withClients,
} from "@/tests/support/resilience";
import { setUpCanarySandbox } from "@/tests/support/set-up-sandbox";

const sandbox = setUpCanarySandbox();

const newest = { sort_by: "id", sort: "desc" } as const;

describe("each kind of change", () => {
  it("creating a report: the lists show it at once, and its new project", async () => {
    const { reports } = harness(sandbox);
    const before = await reports.listReports(newest);
    const projectsBefore = await reports.listProjects({ per_page: 100 });
    const created = await reports.createReport({ url: "https://brand-new-project.example/pricing" });
    const after = await reports.listReports(newest);
    expect(after.data[0]?.id).toBe(created.id);
    expect(after.meta.total).toBe(before.meta.total + 1);
    const projectsAfter = await reports.listProjects({ per_page: 100 });
    expect(projectsAfter.meta.total).toBe(projectsBefore.meta.total + 1);
    expect(projectsAfter.data.map((p) => p.project)).toContain("brand-new-project.example");
  });

  it("updating a report: that report and the lists show the change", async () => {
    const { reports } = harness(sandbox);
    const report = await reports.getReport(8);
    const list = await reports.listReports({ per_page: 100, sort: "asc" });
    expect(list.data.find((r) => r.id === 8)?.privacy).toBe(report.privacy);
    const privacy = report.privacy === 1 ? 0 : 1;
    await reports.updateReport(8, { privacy });
    expect((await reports.getReport(8)).privacy).toBe(privacy);
    expect((await reports.listReports({ per_page: 100, sort: "asc" })).data.find((r) => r.id === 8)?.privacy).toBe(
      privacy,
    );
  });

  it("deleting a report: it is gone from its page and from the lists", async () => {
    const { reports } = harness(sandbox);
    await reports.getReport(9);
    const before = await reports.listReports(newest);
    await reports.deleteReport(9);
    expect((await upstreamErrorOf(reports.getReport(9))).kind).toBe("not_found");
    expect((await reports.listReports(newest)).meta.total).toBe(before.meta.total - 1);
  });

  it("deleting a project: project lists, report lists and every single report are asked again", async () => {
    const { reports } = harness(sandbox);
    const shop = await reports.listReports({ project: "my shop", per_page: 100 });
    const inShop = shop.data[0]!.id;
    const elsewhere = (await reports.listReports({ project: "acme-tools.io" })).data[0]!.id;
    await reports.getReport(inShop);
    await reports.getReport(elsewhere);
    await reports.listProjects({ per_page: 100 });
    await sandbox.clearRequests();

    await reports.deleteProject("my shop");
    expect((await reports.listProjects({ per_page: 100 })).data.map((p) => p.project)).not.toContain("my shop");
    expect((await reports.listReports({ project: "my shop", per_page: 100 })).data).toEqual([]);
    expect((await upstreamErrorOf(reports.getReport(inShop))).kind).toBe("not_found");
    expect((await reports.getReport(elsewhere)).id).toBe(elsewhere);
    expect(await upstreamCalls(sandbox, "GET", reportPath(elsewhere))).toHaveLength(1);
  });
});

describe("what a change leaves alone, and what it cannot leave stale", () => {
  it("a report change keeps the other reports and area B cached", async () => {
    const { reports, items } = harness(sandbox);
    await reports.getReport(10);
    await reports.getReport(11);
    await items.listItems();
    await reports.updateReport(10, { privacy: 1 });
    await reports.getReport(11);
    await items.listItems();
    expect(await upstreamCalls(sandbox, "GET", reportPath(11))).toHaveLength(1);
    expect(await upstreamCalls(sandbox, "GET", ITEMS)).toHaveLength(1);
  });

  it("a change that failed still drops the cache: a lost answer may hide a change that happened", async () => {
    const patient = harness(sandbox);
    const impatient = withClients(sandbox, patient.resilience, { timeoutMs: 300 });
    const before = await patient.reports.getReport(12);
    // The sandbox makes the change, then its answer does not arrive in time.
    await sandbox.injectFault({ method: "PUT", path: reportPath(12), kind: "trickle", bytesPerSecond: 10, times: 1 });
    const failed = await upstreamErrorOf(impatient.reports.updateReport(12, { privacy: before.privacy === 1 ? 0 : 1 }));
    expect(failed.kind).toBe("timeout");
    expect((await patient.reports.getReport(12)).privacy).not.toBe(before.privacy);
  });

  it("a read in flight when a change lands does not put the old answer in the cache", async () => {
    const { reports } = harness(sandbox);
    const report = await reports.getReport(13);
    const privacy = report.privacy === 1 ? 0 : 1;
    await reports.updateReport(13, { privacy: report.privacy }); // empty the cache for report 13
    // The read's answer is made before the change and delivered slowly, after it.
    await sandbox.injectFault({ method: "GET", path: reportPath(13), kind: "trickle", bytesPerSecond: 2000, times: 1 });
    const inFlight = reports.getReport(13);
    await waitForUpstreamCalls(sandbox, "GET", reportPath(13), 2);
    await reports.updateReport(13, { privacy });
    expect((await inFlight).privacy).toBe(report.privacy); // it began before the change: that is fair
    expect((await reports.getReport(13)).privacy).toBe(privacy); // but it was not kept
  });

  it("a user reading right after his change never gets the answer of a read that began before it", async () => {
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    const before = await reports.getReport(14);
    await sandbox.injectFault({ method: "GET", path: reportPath(14), kind: "trickle", bytesPerSecond: 2000, times: 1 });
    const someoneElsesRead = reports.getReport(14);
    await waitForUpstreamCalls(sandbox, "GET", reportPath(14), 2);
    const privacy = before.privacy === 1 ? 0 : 1;
    await reports.updateReport(14, { privacy });
    // Without the detach this read would join the slow one still in flight (single flight) and get the old value.
    expect((await reports.getReport(14)).privacy).toBe(privacy);
    await someoneElsesRead;
  });
});
