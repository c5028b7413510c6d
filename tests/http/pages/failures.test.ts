// Every upstream failure on a server-rendered page shows the failure card, over real HTTP against the
// production build. The attack pass found a 10 s hang answered with HTTP 500 on six pages: the upstream layer's
// one Resilience was created by an API route's chunk, and the pages' `instanceof UpstreamError` did not know
// that chunk's class. So the API is asked first here, as a person's first click on a fresh server would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PAGES_AFTER_A_TIMEOUT } from "@/tests/support/failure-pages";
import { setUpGateway } from "@/tests/support/set-up-gateway";

// A short budget stands for the 10 s hang (the production default).
const { sandbox, gateway, client: admin } = setUpGateway({ signIn: "admin", env: { UPSTREAM_TIMEOUT_MS: "600" } });

describe("an upstream that hangs past UPSTREAM_TIMEOUT_MS, after the API was used first", () => {
  beforeAll(async () => {
    // The first upstream use of this process is an API route's: the Resilience and its errors are that chunk's.
    expect((await admin.request("/api/reports?per_page=10")).status).toBe(200);
    expect((await admin.request("/api/account")).status).toBe(200);
    await sandbox.injectFault({ path: "/seo/*", kind: "hang" });
    await sandbox.injectFault({ path: "/market/*", kind: "hang" });
  });
  afterAll(async () => {
    await sandbox.clearFaults();
  });

  it.each(PAGES_AFTER_A_TIMEOUT)("%s answers 200 with the failure card and Try again", async (path, title, message) => {
    const res = await admin.request(path);
    expect(res.status).toBe(200);
    expect(res.text).toContain(title);
    expect(res.text).toContain(message);
    expect(res.text).toMatch(/<button[^>]*>Try again<\/button>/);
    expect(res.text).not.toContain("Gatehouse could not show this page");
  });

  it("logs the timeouts without a stack trace of an unhandled error", () => {
    expect(gateway.output().some((line) => /⨯ Error \[UpstreamError\]/.test(line))).toBe(false);
  });
});
