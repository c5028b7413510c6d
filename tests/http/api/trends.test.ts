// Reports over time over real HTTP (next start ↔ sandbox, on SQLite and on PostgreSQL), the sandbox driven through result changes
// by its control API: the history rows the reports routes record, the alerts (once per drop, none for a rise or a
// result seen again), the trends and the compare answer, the audited password reveal, and the pruning by
// retention when the next process starts.
import { describe, expect, it } from "vitest";

import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";

const REPORT = 150; // among the newest 100, so the first page of the list carries it
const DAY = 86_400_000;
/** A time `days` days before now, in whole seconds as the upstream writes them. */
const ago = (days: number) =>
  new Date(Math.floor((Date.now() - days * DAY) / 1000) * 1000).toISOString().replace(".000Z", "Z");
const dayOf = (iso: string) => iso.slice(0, 10);
const TIMES = { good: ago(14), decent: ago(4), bad: ago(3), better: ago(1 / 24) };

const json = (body: unknown, method = "POST"): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});
describe.each(bothServerStores())("on $name", (store) => {
  // A store of its own, so that the next process (the pruning test) opens the same one.
  const { sandbox, gateway, client: api, restart } = setUpGateway({ store, signIn: "admin", startTimeoutMs: 60_000 });
  const history = async (id: number) => (await api.request(`/api/reports/${id}/history`)).json.data;
  const unread = async () => (await api.request("/api/alerts/count")).json.data.unread as number;

  describe("the result history and alerts", () => {
    let project: string;

    it("records the results a list shows, once per generated_at, after the answer", async () => {
      await sandbox.setResult(REPORT, { result: "good", generated_at: TIMES.good, when: "now" });
      const list = await api.request("/api/reports?per_page=100");
      expect(list.status).toBe(200);
      project = list.json.data.find((r: { id: number }) => r.id === REPORT).project;
      await expect
        .poll(async () =>
          (await api.request("/api/trends/projects")).json.data.reduce(
            (n: number, p: { reports: number }) => n + p.reports,
            0,
          ),
        )
        .toBe(100);
      const first = await history(REPORT);
      expect(first).toMatchObject({ report_id: REPORT, project, retention_days: 400 });
      expect(first.entries).toEqual([
        expect.objectContaining({
          result: "good",
          generated_at: new Date(TIMES.good).toISOString(),
          source: "list",
          change: "first",
        }),
      ]);
      // The same list again writes nothing new.
      await api.request("/api/reports?per_page=100");
      await api.request(`/api/reports/${REPORT}`);
      expect((await history(REPORT)).entries).toHaveLength(1);
    });

    it("makes one alert per drop (good → decent, decent → bad), none for a rise or a result seen again", async () => {
      expect(await unread()).toBe(0);
      await sandbox.setResult(REPORT, { result: "decent", generated_at: TIMES.decent });
      expect((await api.request(`/api/reports/${REPORT}`, json({ results: true }, "PATCH"))).json.data.result).toBe(
        "decent",
      );
      await expect.poll(unread).toBe(1);

      await sandbox.setResult(REPORT, { result: "bad", generated_at: TIMES.bad });
      await api.request(`/api/reports/${REPORT}`, json({ results: true }, "PATCH"));
      await expect.poll(unread).toBe(2);

      await sandbox.setResult(REPORT, { result: "good", generated_at: TIMES.better });
      await api.request(`/api/reports/${REPORT}`, json({ results: true }, "PATCH"));
      await expect.poll(async () => (await history(REPORT)).entries.length).toBe(4);
      // Shown and listed again: the same rows, no new alert.
      await api.request(`/api/reports/${REPORT}`);
      await api.request(`/api/reports?project=${encodeURIComponent(project)}`);
      expect(await unread()).toBe(2);

      const { entries } = await history(REPORT);
      expect(
        entries.map((e: { result: string; change: string; source: string }) => [e.result, e.change, e.source]),
      ).toEqual([
        ["good", "better", "regenerate"],
        ["bad", "worse", "regenerate"],
        ["decent", "worse", "regenerate"],
        ["good", "first", "list"],
      ]);
      const alerts = (await api.request("/api/alerts")).json;
      expect(alerts.meta.total).toBe(2);
      expect(
        alerts.data.map((a: { from: string; to: string; report_id: number }) => [a.report_id, a.from, a.to]),
      ).toEqual([
        [REPORT, "decent", "bad"],
        [REPORT, "good", "decent"],
      ]);
    });

    it("filters and acknowledges alerts, and audits the acknowledging", async () => {
      expect((await api.request(`/api/alerts?to=bad&project=${encodeURIComponent(project)}`)).json.meta.total).toBe(1);
      expect((await api.request("/api/alerts?status=acknowledged")).json.meta.total).toBe(0);
      const [newest] = (await api.request("/api/alerts")).json.data;
      const ack = await api.request("/api/alerts/acknowledge", json({ ids: [newest.id] }));
      expect(ack.json.data).toEqual({ acknowledged: 1, acknowledged_at: expect.any(String) });
      expect(await unread()).toBe(1);
      // Undo: the alerts of that acknowledgement are unread again, then acknowledged once more.
      const at = ack.json.data.acknowledged_at;
      expect((await api.request("/api/alerts/unacknowledge", json({ acknowledged_at: at }))).json.data).toEqual({
        unread: 1,
      });
      expect(await unread()).toBe(2);
      expect((await api.request("/api/alerts/unacknowledge", json({ acknowledged_at: "yesterday" }))).status).toBe(400);
      expect((await api.request("/api/alerts/acknowledge", json({ ids: [newest.id] }))).json.data.acknowledged).toBe(1);
      expect((await api.request("/api/alerts?status=acknowledged")).json.data[0]).toMatchObject({
        id: newest.id,
        acknowledged_by: api.user.email,
      });
      expect((await api.request("/api/alerts/acknowledge", json({ all: true }))).json.data).toMatchObject({
        acknowledged: 1,
      });
      expect(await unread()).toBe(0);
      const refused = await api.request("/api/alerts/acknowledge", json({ ids: [1], all: true }));
      expect(refused.status).toBe(400);
      expect((await api.request("/api/alerts?status=new")).status).toBe(400);
      const audit = (await api.request("/api/admin/audit?action=alert.acknowledge")).json.data;
      expect(audit.map((row: { outcome: string }) => row.outcome).sort()).toEqual([
        "failure",
        "success",
        "success",
        "success",
      ]);
      const undone = (await api.request("/api/admin/audit?action=alert.unacknowledge")).json.data;
      expect(undone.map((row: { outcome: string }) => row.outcome).sort()).toEqual(["failure", "success"]);
    });

    it("follows a project's alert rule: only drops to bad, or none", async () => {
      expect((await api.request(`/api/projects/${encodeURIComponent(project)}/alert-rule`)).json.data).toMatchObject({
        rule: "any",
        updated_at: null,
      });
      const set = await api.request(`/api/projects/${encodeURIComponent(project)}/alert-rule`, json({ rule: "off" }));
      expect(set.json.data).toMatchObject({ project, rule: "off", updated_by: api.user.email });
      expect(
        (await api.request(`/api/projects/${encodeURIComponent(project)}/alert-rule`, json({ rule: "sometimes" })))
          .status,
      ).toBe(400);
      await sandbox.setResult(REPORT, { result: "bad", generated_at: ago(1 / 48) });
      await api.request(`/api/reports/${REPORT}`, json({ results: true }, "PATCH"));
      await expect.poll(async () => (await history(REPORT)).entries.length).toBe(5);
      expect(await unread()).toBe(0);
    });

    it("answers trends by day and the compare of two days", async () => {
      const trend = (await api.request(`/api/trends?days=30&project=${encodeURIComponent(project)}`)).json.data;
      expect(trend.days).toHaveLength(30);
      expect(trend.days.find((d: { day: string }) => d.day === dayOf(TIMES.good))).toMatchObject({
        good: expect.any(Number),
      });
      expect(trend.days.find((d: { day: string }) => d.day === dayOf(TIMES.decent)).decent).toBeGreaterThanOrEqual(1);
      expect((await api.request("/api/trends?days=7")).json.error.fields).toEqual({
        days: expect.stringContaining("30, 90, 365"),
      });

      const compare = await api.request(
        `/api/projects/${encodeURIComponent(project)}/compare?from=${dayOf(TIMES.good)}&to=${dayOf(TIMES.decent)}`,
      );
      expect(compare.status).toBe(200);
      expect(compare.json.data.worse).toEqual([
        expect.objectContaining({ report_id: REPORT, from: "good", to: "decent", change: "worse" }),
      ]);
      expect(compare.json.data.better).toEqual([]);
      const back = await api.request(
        `/api/projects/${encodeURIComponent(project)}/compare?from=${dayOf(TIMES.bad)}&to=${dayOf(TIMES.good)}`,
      );
      expect(back.status).toBe(400);
      const since = await api.request(
        `/api/projects/${encodeURIComponent(project)}/compare?from=${dayOf(TIMES.decent)}&to=${dayOf(TIMES.bad)}`,
      );
      expect(since.json.data.worse).toEqual([
        expect.objectContaining({ report_id: REPORT, from: "decent", to: "bad" }),
      ]);
      const refused = await api.request(
        `/api/projects/${encodeURIComponent(project)}/compare?from=2026-11-05&to=2026-11-01`,
      );
      expect(refused.status).toBe(400);
      expect(refused.json.error.fields).toEqual({ from: "from must not be after to" });
    });
  });

  describe("the page password", () => {
    it("reveals the password Gatehouse set to an editor, audited; a report without one is a 404 that says why", async () => {
      const editor = await gateway.signIn("editor");
      const created = (
        await editor.request(
          "/api/reports",
          json({ url: "https://reveal.example/page", privacy: 2, password: "open sesame 42" }),
        )
      ).json.data;
      const revealed = await editor.request(`/api/reports/${created.id}/password`, { method: "POST" });
      expect(revealed.status).toBe(200);
      expect(revealed.json.data).toMatchObject({
        report_id: created.id,
        password: "open sesame 42",
        set_by: editor.user.email,
      });
      const audit = (await api.request("/api/admin/audit?action=report.password_reveal")).json.data;
      expect(audit[0]).toMatchObject({
        action: "report.password_reveal",
        user_email: editor.user.email,
        target: { type: "report", id: String(created.id) },
      });
      expect(JSON.stringify(audit)).not.toContain("open sesame");

      await editor.request(`/api/reports/${created.id}`, json({ privacy: 0 }, "PATCH"));
      const gone = await editor.request(`/api/reports/${created.id}/password`, { method: "POST" });
      expect(gone.status).toBe(404);
      expect(gone.json.error.message).toContain("only a password set through Gatehouse can be revealed");
      expect(
        (await (await gateway.signIn("viewer")).request(`/api/reports/${created.id}/password`, { method: "POST" }))
          .status,
      ).toBe(403);
    });
  });

  describe("pruning", () => {
    it("removes results older than REPORT_HISTORY_RETENTION_DAYS when the next process starts, keeping the recent ones", async () => {
      await restart({ REPORT_HISTORY_RETENTION_DAYS: "2" });
      await expect
        .poll(async () => (await history(REPORT)).entries.map((e: { result: string }) => e.result))
        .toEqual(["bad", "good"]);
      expect((await history(REPORT)).retention_days).toBe(2);
      const year = (await api.request("/api/trends?days=365")).json.data.days;
      expect(
        year
          .filter((d: { day: string; good: number; decent: number; bad: number }) => d.good + d.decent + d.bad > 0)
          .every((d: { day: string }) => d.day >= dayOf(ago(2))),
      ).toBe(true);
      expect(gateway.logLines().some((line) => line.msg === "report_history_pruned")).toBe(true);
    });

    it("leaked no key", () => {
      expect(() => gateway.assertNoKeyLeaked()).not.toThrow();
    });
  });
});
