// An item service that answers "valid" with a purchase carrying ANOTHER code than the one asked (a caching proxy
// mixing answers, a buggy or hostile upstream) is an upstream error: the check answers 502, is kept as failed in
// the history and the audit log, and is logged — the code is never shown as valid. Single checks and bulk jobs.
import { beforeAll, describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { CANARY } from "@/tests/support/canary";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const VALIDATION_PATH = "/market/api/purchases/validation";
const ASKED = "44444444-4444-4444-8444-44444444d004";

const {
  sandbox,
  gateway,
  clients: { support, admin },
} = setUpGateway({ signIn: ["support", "admin"] });
/** A real "valid" answer of the sandbox, for another code than ASKED. */
let otherCodesAnswer: unknown;

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  const direct = await fetch(`${sandbox.itemsBaseUrl}/api/purchases/validation`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ api_key: CANARY.items, purchase_code: FIXED_PURCHASE_CODES.active }).toString(),
  });
  otherCodesAnswer = await direct.json();
  expect((otherCodesAnswer as { data: { purchase: { purchase_code: string } } }).data.purchase.purchase_code).toBe(
    FIXED_PURCHASE_CODES.active,
  );
});

describe("a single check", () => {
  it("answers 502 instead of valid, keeps the check as failed, audits it as failed and logs why", async () => {
    await sandbox.injectFault({
      method: "POST",
      path: VALIDATION_PATH,
      kind: "status",
      status: 200,
      body: otherCodesAnswer,
      times: 1,
    });
    const res = await support.request("/api/purchases/validate", json({ purchase_code: ASKED }));
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe("upstream_bad_response");
    expect(res.text).not.toContain('"valid":true');

    const history = await support.request("/api/purchases/history?per_page=10");
    expect(history.json.data[0]).toMatchObject({ outcome: "failed", code_last4: ASKED.slice(-4), item_id: null });

    const audit = await admin.request("/api/admin/audit?action=purchase.validate&per_page=10");
    expect(audit.json.data[0]).toMatchObject({
      action: "purchase.validate",
      outcome: "failed",
      request_id: res.headers.get("x-request-id"),
    });

    const line = await gateway.logLineFor(res.headers.get("x-request-id") ?? "");
    expect(line).toMatchObject({ status: 502, error_code: "upstream_bad_response" });
    expect(String(line.upstream_error)).toContain("answered about another purchase code than the one asked");
  });

  it("still answers valid when the upstream gives the same code in another letter case", async () => {
    const upper = structuredClone(otherCodesAnswer) as { data: { purchase: { purchase_code: string } } };
    upper.data.purchase.purchase_code = FIXED_PURCHASE_CODES.active.toUpperCase();
    await sandbox.injectFault({
      method: "POST",
      path: VALIDATION_PATH,
      kind: "status",
      status: 200,
      body: upper,
      times: 1,
    });
    const res = await support.request("/api/purchases/validate", json({ purchase_code: FIXED_PURCHASE_CODES.active }));
    expect(res.status).toBe(200);
    expect(res.json.data.valid).toBe(true);
  });
});

describe("a bulk job", () => {
  it("records the mismatched code as failed, never valid", async () => {
    await sandbox.injectFault({
      method: "POST",
      path: VALIDATION_PATH,
      kind: "status",
      status: 200,
      body: otherCodesAnswer,
    });
    const created = await support.request("/api/purchases/bulk", json({ codes: [ASKED] }));
    expect(created.status).toBe(202);
    const id = created.json.data.id as string;
    let job: { status: string; results: Array<{ status: string }> } | undefined;
    for (let i = 0; i < 200 && job?.status !== "done"; i++) {
      job = (await support.request(`/api/purchases/bulk/${id}`)).json.data;
      if (job?.status !== "done") await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await sandbox.clearFaults();
    expect(job?.status).toBe("done");
    expect(job?.results.map((result) => result.status)).toEqual(["failed"]);
  });
});
