// PURCHASE_CODE_FORMAT over real HTTP (next start ↔ sandbox): under auto (the default) every form a buyer pastes a
// UUID in is checked as the canonical code and is valid against the sandbox; under uuid a short code and a
// non-hex character are refused with words that name the problem and the sandbox records no validation request;
// under exact an upper-case code is sent as typed. The history finds a code whatever form it is searched in.
import { describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { CANARY } from "@/tests/support/canary";
import { startGatewayExpectingFailure } from "@/tests/support/gateway";
import type { TestSandbox } from "@/tests/support/sandbox";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const VALIDATION_PATH = "/market/api/purchases/validation";
// A seeded code with hex letters, so that its upper case is another string.
const CODE = FIXED_PURCHASE_CODES.letters;
const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** Each form a buyer pastes the code in. */
const PASTED: Array<[string, string]> = [
  ["upper case", CODE.toUpperCase()],
  ["no hyphens", CODE.replace(/-/g, "")],
  ["braces", `{${CODE}}`],
  ["quotes", `"${CODE}"`],
  ["urn:uuid:", `urn:uuid:${CODE}`],
  ["upper case, no hyphens, in braces", `{${CODE.replace(/-/g, "").toUpperCase()}}`],
];

/** A portal on its own sandbox with this PURCHASE_CODE_FORMAT, a support person signed in. */
const withFormat = (format: string | undefined) =>
  setUpGateway({ env: { PURCHASE_CODE_FORMAT: format }, signIn: "support" });

/** The codes the sandbox was asked to validate, in order. */
async function askedCodes(sandbox: TestSandbox): Promise<string[]> {
  const requests = await sandbox.requests();
  return requests
    .filter((request) => request.path === VALIDATION_PATH)
    .map((request) => String(request.form?.purchase_code));
}

describe("auto (the default)", () => {
  const { sandbox, client: support } = withFormat(undefined);

  it.each(PASTED)("checks a code pasted with %s as the canonical code: valid, with a note", async (_what, pasted) => {
    await sandbox.clearRequests();
    const res = await support.request("/api/purchases/validate", json({ purchase_code: pasted }));
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ valid: true, checked_code: CODE, purchase: { purchase_code: CODE } });
    expect(res.json.data.notes.at(-1)).toMatch(/^Read as a UUID and sent in its usual form/);
    expect(await askedCodes(sandbox)).toEqual([CODE]);
  });

  it("sends a code that is not a UUID as cleaned, so an upstream with other codes keeps working", async () => {
    await sandbox.clearRequests();
    const res = await support.request("/api/purchases/validate", json({ purchase_code: "ABC-123-not-a-uuid" }));
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ valid: false, checked_code: "ABC-123-not-a-uuid" });
    expect(await askedCodes(sandbox)).toEqual(["ABC-123-not-a-uuid"]);
  });

  it("counts the pasted forms as the same code's earlier checks, and the history finds it in any form", async () => {
    const res = await support.request(
      "/api/purchases/validate",
      json({ purchase_code: `URN:UUID:${CODE.toUpperCase()}` }),
    );
    expect(res.json.data.history.previous_checks).toBeGreaterThanOrEqual(PASTED.length);
    for (const [, pasted] of PASTED) {
      const found = await support.request("/api/purchases/history/search", json({ code: pasted }));
      expect(found.status).toBe(200);
      expect(found.json.meta.total, pasted).toBeGreaterThanOrEqual(PASTED.length + 1);
    }
  });

  it("merges two pasted forms of one code in a bulk list: one code, checked once", async () => {
    const created = await support.request(
      "/api/purchases/bulk",
      json({ codes: [CODE.toUpperCase(), `{${CODE}}`, CODE.replace(/-/g, "")] }),
    );
    expect(created.status, created.text).toBe(202);
    expect(created.json.data).toMatchObject({ total: 1, duplicates: 2 });
  });
});

describe("uuid", () => {
  const { sandbox, client: support } = withFormat("uuid");

  it.each<[string, string, string]>([
    ["a code one character short", CODE.slice(0, 35), "35 characters; a purchase code has 36"],
    [
      "a character that is not a hex digit",
      `${CODE.slice(0, 8)}g${CODE.slice(9)}`,
      "'g' at position 9 is not a hexadecimal digit",
    ],
  ])("refuses %s in words, and the sandbox is never asked", async (_what, code, words) => {
    await sandbox.clearRequests();
    const res = await support.request("/api/purchases/validate", json({ purchase_code: code }));
    expect(res.status).toBe(400);
    expect(res.json.error.fields.purchase_code).toContain(words);
    expect(await sandbox.requests()).toEqual([]);
  });

  it("still checks every pasted form of a UUID as the canonical code", async () => {
    await sandbox.clearRequests();
    const res = await support.request("/api/purchases/validate", json({ purchase_code: `{${CODE.toUpperCase()}}` }));
    expect(res.json.data).toMatchObject({ valid: true, checked_code: CODE });
    expect(await askedCodes(sandbox)).toEqual([CODE]);
  });

  it("refuses such codes in a bulk list before any is sent", async () => {
    await sandbox.clearRequests();
    const created = await support.request("/api/purchases/bulk", json({ codes: [CODE.slice(0, 35)] }));
    expect(created.status).toBe(202);
    const job = (await support.request(`/api/purchases/bulk/${created.json.data.id}`)).json.data;
    // Not a purchase code: refused, not counted as an invalid purchase, and its slip named.
    expect(job).toMatchObject({ status: "done", invalid: 0, refused: 1 });
    expect(job.results[0]).toMatchObject({
      refused: true,
      suggestion: { slip: "one character missing in the last group (11, not 12)", code: null },
    });
    expect(job.results[0].reason).toContain("35 characters; a purchase code has 36");
    expect(await askedCodes(sandbox)).toEqual([]);
  });
});

describe("exact", () => {
  const { sandbox, client: support } = withFormat("exact");

  it("sends an upper-case code as typed (the sandbox, which matches exactly, does not know it)", async () => {
    await sandbox.clearRequests();
    const res = await support.request(
      "/api/purchases/validate",
      json({ purchase_code: `\u200b${CODE.toUpperCase()}` }),
    );
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ valid: false, checked_code: CODE.toUpperCase() });
    expect(await askedCodes(sandbox)).toEqual([CODE.toUpperCase()]);
  });
});

it("refuses an unknown PURCHASE_CODE_FORMAT at start, naming the choices", async () => {
  // The start stops at the settings, before any upstream is asked: a reports area that answers nothing will do.
  const { code, output } = await startGatewayExpectingFailure({
    REPORTS_API_BASE_URL: "http://127.0.0.1:9/seo",
    REPORTS_API_KEY: CANARY.reports,
    PURCHASE_CODE_FORMAT: "strict",
  });
  expect(code).not.toBe(0);
  expect(output.join("\n")).toContain("PURCHASE_CODE_FORMAT");
  expect(output.join("\n")).toContain("auto, uuid, exact");
});
