// The operations table's webhook events: which operation's success is which event, walked over the whole table so
// that an event hung on the wrong operation (as project.deleted once was on acknowledgeAlerts) or a new operation
// that emits one fails here, naming the operation. Over HTTP: tests/http/server/operation-events.test.ts.
import { describe, expect, it } from "vitest";

import { operations, type AuditFacts, type OperationSpec } from "@/lib/api/operations";
import { WEBHOOK_EVENTS, type WebhookEventType } from "@/lib/contract/values";

type OperationId = keyof typeof operations;
const table = Object.entries(operations) as Array<[OperationId, OperationSpec]>;

/** Every operation whose success is an event, with the events it can be; every other operation emits none. */
const EMITS: Partial<Record<OperationId, readonly WebhookEventType[]>> = {
  createReport: ["report.created"],
  updateReport: ["report.updated", "report.regenerated"],
  deleteReport: ["report.deleted"],
  deleteProject: ["project.deleted"],
  validatePurchase: ["purchase.checked"],
};
/** Events that no request emits: background work tells of them (bulk jobs, report history, the breaker, keys). */
const EMITTED_IN_THE_BACKGROUND: readonly WebhookEventType[] = [
  "purchase.revoked",
  "purchase.support_expiring",
  "purchase.shared_suspected",
  // The licence API's service (lib/licences) tells of what a copy or a staff reset changed, not the wrapper.
  "licence.activated",
  "licence.deactivated",
  "licence.limit_reached",
  "bulk_job.finished",
  "report.result_changed",
  "upstream.unavailable",
  "upstream.recovered",
  "upstream.key_rejected",
  "upstream.key_restored",
  // A person's factors (lib/auth/factors/changes.ts): the same event from the account's routes and the users CLI.
  "account.factor_enrolled",
  "account.factor_removed",
  "account.recovery_code_used",
  "account.factors_reset",
  // A token's quota (lib/tokens/quota.ts): the limit step counts it, not an operation's success.
  "token.quota_reached",
];

/** Facts for calling `describe` and an audit action: a success with a report, a project and a checked code. */
const facts = (body: Record<string, unknown> = {}): AuditFacts => ({
  params: { id: "7", project: "my shop" },
  body,
  data: {
    id: 7,
    url: "https://example.com/",
    project: "my shop",
    checked_code: "86781236-23d0-4b3a-b9a7-4ff5c7b1e2f0",
    valid: true,
  },
});
const code = () => ({ hash: "h".repeat(64), last4: "e2f0" });
const noun = (name: string) => name.split(".")[0];

describe("the operations' webhook events", () => {
  it.each(table)("%s emits exactly what it declares", (id, spec) => {
    expect(spec.event?.emits ?? [], id).toEqual(EMITS[id] ?? []);
  });

  it("has every event emitted by some operation or by background work, never both", () => {
    const byOperations = Object.values(EMITS).flat();
    for (const type of WEBHOOK_EVENTS) {
      expect([byOperations.includes(type), EMITTED_IN_THE_BACKGROUND.includes(type)], type).toSatisfy(
        ([a, b]: boolean[]) => a !== b,
      );
    }
  });

  it.each(table.filter(([, spec]) => spec.event))(
    "%s: its event is about what its audit row is about, and describe picks a declared type",
    (id, spec) => {
      const event = spec.event!;
      // A change to a thing is audited and announced under the same noun (project.delete ↔ project.deleted).
      const action = spec.audit?.action;
      const actions = typeof action === "function" ? [action(facts()), action(facts({ results: true }))] : [action];
      for (const type of event.emits)
        for (const audited of actions) expect(noun(type), `${id}: ${type} vs ${audited}`).toBe(noun(String(audited)));
      // Each declared type is reachable, and nothing else is.
      const described = [facts(), facts({ results: true }), facts({ privacy: 1 })].map(
        (f) => event.describe(f, code)?.type,
      );
      expect(new Set(described.filter(Boolean)), id).toEqual(new Set(event.emits));
    },
  );

  it("tells of a project's deletion from deleteProject, naming the project, and of nothing from acknowledging alerts", () => {
    expect((operations.deleteProject as OperationSpec).event?.describe(facts(), code)).toEqual({
      type: "project.deleted",
      data: { project: "my shop" },
    });
    expect("event" in operations.acknowledgeAlerts).toBe(false);
  });
});
