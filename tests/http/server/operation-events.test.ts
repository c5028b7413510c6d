// Which webhook events each operation's success sends, over real HTTP (next start ↔ sandbox, one endpoint that
// wants every event): walked from the operations table, so that every operation declaring events is called here
// once per event it declares and once failing, and each call's deliveries are read back from the store (they are
// written before the answer goes, so nothing is waited for). A failed or no-op call sends none; acknowledging
// alerts (once wired to project.deleted) sends none, and deleting a project sends project.deleted naming it.
// The table's declarations themselves: tests/unit/lib/api/operations/index.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { operations, type OperationSpec } from "@/lib/api/operations";
import { WEBHOOK_EVENTS, type WebhookEventType } from "@/lib/contract/values";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import type { SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

type OperationId = keyof typeof operations;
interface Clients {
  admin: SignedInClient;
  viewer: SignedInClient;
}
interface Case {
  operation: OperationId;
  what: string;
  /** Made before the call and outside its count: a report of its own to change or delete. */
  report?: true;
  call: (clients: Clients, report: number) => Promise<{ status: number; text: string }>;
  status: number;
  emits: WebhookEventType[];
}

const json = (body: unknown, method = "POST"): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});
const newReport = async (admin: SignedInClient) => {
  const res = await admin.request("/api/reports", json({ url: `https://example.com/events-${crypto.randomUUID()}` }));
  expect(res.status, res.text).toBe(201);
  return res.json.data.id as number;
};

const CASES: Case[] = [
  {
    operation: "createReport",
    what: "a new report",
    call: ({ admin }) => admin.request("/api/reports", json({ url: "https://example.com/events" })),
    status: 201,
    emits: ["report.created"],
  },
  {
    operation: "createReport",
    what: "a URL refused",
    call: ({ admin }) => admin.request("/api/reports", json({ url: "not a url" })),
    status: 400,
    emits: [],
  },
  {
    operation: "updateReport",
    what: "a privacy change",
    report: true,
    call: ({ admin }, report) => admin.request(`/api/reports/${report}`, json({ privacy: 1 }, "PATCH")),
    status: 200,
    emits: ["report.updated"],
  },
  {
    operation: "updateReport",
    what: "a regeneration",
    report: true,
    call: ({ admin }, report) => admin.request(`/api/reports/${report}`, json({ results: true }, "PATCH")),
    status: 200,
    emits: ["report.regenerated"],
  },
  {
    operation: "updateReport",
    what: "an unknown report",
    call: ({ admin }) => admin.request("/api/reports/999999", json({ privacy: 1 }, "PATCH")),
    status: 404,
    emits: [],
  },
  {
    operation: "updateReport",
    what: "nothing to change",
    call: ({ admin }) => admin.request("/api/reports/5", json({}, "PATCH")),
    status: 400,
    emits: [],
  },
  {
    operation: "deleteReport",
    what: "a report deleted",
    report: true,
    call: ({ admin }, report) => admin.request(`/api/reports/${report}`, { method: "DELETE" }),
    status: 204,
    emits: ["report.deleted"],
  },
  {
    operation: "deleteReport",
    what: "by a viewer",
    call: ({ viewer }) => viewer.request("/api/reports/5", { method: "DELETE" }),
    status: 403,
    emits: [],
  },
  {
    operation: "deleteReport",
    what: "an unknown report",
    call: ({ admin }) => admin.request("/api/reports/999999", { method: "DELETE" }),
    status: 404,
    emits: [],
  },
  {
    operation: "deleteProject",
    what: "a project deleted",
    call: ({ admin }) => admin.request(`/api/projects/${encodeURIComponent("acme-tools.io")}`, { method: "DELETE" }),
    status: 204,
    emits: ["project.deleted"],
  },
  {
    operation: "deleteProject",
    what: "by a viewer",
    call: ({ viewer }) => viewer.request("/api/projects/northwind-coffee.com", { method: "DELETE" }),
    status: 403,
    emits: [],
  },
  {
    operation: "deleteProject",
    what: "an unknown project",
    call: ({ admin }) => admin.request("/api/projects/no-such-project.example", { method: "DELETE" }),
    status: 404,
    emits: [],
  },
  {
    operation: "validatePurchase",
    what: "a code checked",
    call: ({ admin }) => admin.request("/api/purchases/validate", json({ purchase_code: FIXED_PURCHASE_CODES.active })),
    status: 200,
    emits: ["purchase.checked"],
  },
  {
    operation: "validatePurchase",
    what: "a code with a control character refused",
    call: ({ admin }) =>
      admin.request("/api/purchases/validate", json({ purchase_code: `${FIXED_PURCHASE_CODES.active}\u0007` })),
    status: 400,
    emits: [],
  },
  // Once wired to project.deleted: a viewer's acknowledgement told every receiver a project was gone.
  {
    operation: "acknowledgeAlerts",
    what: "every unread alert, by a viewer",
    call: ({ viewer }) => viewer.request("/api/alerts/acknowledge", json({ all: true })),
    status: 200,
    emits: [],
  },
  {
    operation: "acknowledgeAlerts",
    what: "unknown alerts (a no-op)",
    call: ({ admin }) => admin.request("/api/alerts/acknowledge", json({ ids: [999999] })),
    status: 200,
    emits: [],
  },
];

const { clients } = setUpGateway({ signIn: ["admin", "viewer"], env: { WEBHOOK_ALLOW_PRIVATE: "1" } });
let receiver: WebhookReceiver;
let endpointId: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  const created = await clients.admin.request(
    "/api/admin/webhooks",
    json({ url: receiver.url, events: WEBHOOK_EVENTS }),
  );
  expect(created.status, created.text).toBe(201);
  endpointId = created.json.data.id;
  receiver.secrets = [created.json.data.secret];
});
afterAll(async () => {
  await receiver?.close();
});

/**
 * The events the call's operation stored, read from the delivery log (each is stored before the answer goes).
 * An operation's event names who did it (`by`); background work's events that a call sets off do not (a
 * regeneration whose result changed is also a report.result_changed, from the report's history).
 */
async function eventsOf(call: () => Promise<{ status: number; text: string }>) {
  const log = async () =>
    (await clients.admin.request(`/api/admin/webhooks/${endpointId}/deliveries`)).json.data as Array<{
      id: string;
      payload: string;
    }>;
  const before = new Set((await log()).map((d) => d.id));
  const answer = await call();
  const events = (await log())
    .filter((d) => !before.has(d.id))
    .map((d) => JSON.parse(d.payload) as { type: string; data: Record<string, unknown> })
    .filter((event) => "by" in event.data);
  return { ...answer, events };
}

describe("each operation's events, over HTTP", () => {
  it("calls every operation that declares events once per event and once failing", () => {
    for (const [id, spec] of Object.entries(operations) as Array<[OperationId, OperationSpec]>) {
      const mine = CASES.filter((c) => c.operation === id);
      for (const type of spec.event?.emits ?? [])
        expect(
          mine.some((c) => c.emits.includes(type)),
          `${id} → ${type}`,
        ).toBe(true);
      if (spec.event)
        expect(
          mine.some((c) => c.emits.length === 0 && c.status >= 400),
          `${id} failing`,
        ).toBe(true);
    }
  });

  it.each(CASES.map((c) => [`${c.operation}: ${c.what}`, c] as const))("%s", async (_name, c) => {
    const report = c.report ? await newReport(clients.admin) : 0;
    const { status, text, events } = await eventsOf(() => c.call(clients, report));
    expect(status, text).toBe(c.status);
    expect(events.map((e) => e.type)).toEqual(c.emits);
  });

  it("names the deleted project in project.deleted", async () => {
    const { status, events } = await eventsOf(() =>
      clients.admin.request("/api/projects/blog.fernweh-reisen.de", { method: "DELETE" }),
    );
    expect(status).toBe(204);
    expect(events).toMatchObject([
      {
        type: "project.deleted",
        data: {
          project: "blog.fernweh-reisen.de",
          by: expect.objectContaining({ email: "admin@gatehouse.test", via: "session" }),
        },
      },
    ]);
  });
});
