// A hostile or careless upstream that echoes Gatehouse's key back — upper-cased, percent-encoded, base64'd,
// hex — in an error message, a field message or an ordinary answer: none of those forms reaches the client's
// answer or the log (the attack pass got upper-case, base64 and percent-encoded copies back unredacted).
import { describe, expect, it } from "vitest";

import { CANARY, keyEncodings } from "@/tests/support/canary";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const everyCharPercent = (key: string) =>
  [...Buffer.from(key)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join("");
/** The key as the attack pass saw it come back, plus the other common encodings. */
function echoes(key: string): string[] {
  return [
    key.toUpperCase(),
    key.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c)),
    everyCharPercent(key),
    encodeURIComponent(everyCharPercent(key)),
    Buffer.from(key).toString("hex"),
    Buffer.from(`gatehouse:${key}`).toString("base64"),
    Buffer.from(`?k=${key}`).toString("base64url"),
  ];
}

function assertNoEcho(text: string, key: string, where: string): void {
  const lower = text.toLowerCase();
  const { anyCase, exact } = keyEncodings(key);
  for (const needle of anyCase) expect(lower.includes(needle.toLowerCase()), `${where}: ${needle}`).toBe(false);
  for (const needle of exact) expect(text.includes(needle), `${where}: ${needle}`).toBe(false);
}

const { sandbox, gateway, client: editor } = setUpGateway({ signIn: "editor" });

describe("the reports key echoed by area A", () => {
  it("in a 422's message and field messages: the 400 names the fields, without the key", async () => {
    const said = echoes(CANARY.reports).join(" ");
    await sandbox.injectFault({
      method: "POST",
      path: "/seo/api/v1/reports",
      kind: "status",
      status: 422,
      body: { message: `Bad key ${said}`, errors: { url: [`The url is wrong for ${said}`] } },
      times: 1,
    });
    const res = await editor.request("/api/reports", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ url: "https://echo.example/" }),
    });
    expect(res.status).toBe(400);
    expect(res.json.error.fields.url).toMatch(/^The url is wrong for \[REDACTED\]/);
    assertNoEcho(res.text, CANARY.reports, "the 400");
  });

  it("in a 500's message: the 502 and the log line say what failed, without the key", async () => {
    await sandbox.injectFault({
      method: "GET",
      path: "/seo/api/v1/reports/5",
      kind: "status",
      status: 500,
      body: { message: `Server error near ${echoes(CANARY.reports).join(", ")}` },
      times: 1,
    });
    const res = await editor.request("/api/reports/5");
    expect(res.status).toBe(502);
    assertNoEcho(res.text, CANARY.reports, "the 502");
    const line = await gateway.logLineFor(res.headers.get("x-request-id") ?? "");
    assertNoEcho(JSON.stringify(line), CANARY.reports, "the log line");
  });
});

describe("the items key echoed by area B", () => {
  it("inside an ordinary answer (the account's profile): the 200 carries it redacted", async () => {
    const direct = await fetch(`${sandbox.itemsBaseUrl}/api/account/details?api_key=${CANARY.items}`);
    const account = (await direct.json()) as { data: { profile: { description: string } } };
    account.data.profile.description = `Our key: ${echoes(CANARY.items).join(" | ")}`;
    await sandbox.injectFault({
      method: "GET",
      path: "/market/api/account/details",
      kind: "status",
      status: 200,
      body: account,
      times: 1,
    });
    const res = await editor.request("/api/account");
    expect(res.status).toBe(200);
    expect(res.json.data.profile.description.startsWith("Our key: [REDACTED]")).toBe(true);
    assertNoEcho(res.text, CANARY.items, "the account answer");
  });

  it("in an error message: neither the answer nor any log line holds it", async () => {
    await sandbox.injectFault({
      method: "GET",
      path: "/market/api/items/all",
      kind: "status",
      status: 200,
      body: { status: "error", msg: `Quota for ${echoes(CANARY.items).join(" ")}` },
      times: 1,
    });
    const res = await editor.request("/api/items");
    expect(res.status).toBe(502);
    assertNoEcho(res.text, CANARY.items, "the 502");
  });

  it("the whole exchange: no response and no output line holds any canary in any encoding", () => {
    gateway.assertNoKeyLeaked();
  });
});
