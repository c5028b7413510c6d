// The control API over real HTTP: every fault kind, fault matching, the request log and reset.
import { request } from "node:http";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { SANDBOX_KEYS } from "@/lib/sandbox";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(async () => {
  await sandbox.clearFaults();
  await sandbox.clearRequests();
});

const REPORTS = "/seo/api/v1/reports";
const ACCOUNT = "/market/api/account/details";
const auth = { authorization: `Bearer ${SANDBOX_KEYS.reports}` };

function reports(init: RequestInit = {}): Promise<Response> {
  return fetch(`${sandbox.url}${REPORTS}`, { ...init, headers: { ...auth, ...init.headers } });
}

function account(): Promise<Response> {
  return fetch(`${sandbox.url}${ACCOUNT}?api_key=${SANDBOX_KEYS.items}`);
}

describe("faults", () => {
  it("latency delays the answer, which is otherwise normal", async () => {
    await sandbox.injectFault({ path: REPORTS, kind: "latency", latencyMs: 250 });
    const started = performance.now();
    const res = await reports();
    expect(performance.now() - started).toBeGreaterThanOrEqual(240); // the delay happened (a lower bound only)
    expect(res.status).toBe(200);
    expect(((await res.json()) as { meta: { total: number } }).meta.total).toBe(160);
  });

  it("status answers with the given status, headers and body, and does not run the operation", async () => {
    await sandbox.injectFault({
      path: REPORTS,
      method: "POST",
      kind: "status",
      status: 429,
      headers: { "Retry-After": "2" },
      body: { message: "Too Many Attempts." },
    });
    const res = await reports({ method: "POST", body: new URLSearchParams({ url: "https://faulted.example/" }) });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(await res.json()).toEqual({ message: "Too Many Attempts." });
    await sandbox.clearFaults();
    const list = (await (await reports()).json()) as { meta: { total: number } };
    expect(list.meta.total).toBe(160);
  });

  it("status without a body answers in the area's error style", async () => {
    await sandbox.injectFault({ path: "/seo/*", kind: "status", status: 503 });
    await sandbox.injectFault({ path: "/market/*", kind: "status", status: 500 });
    const seo = await reports();
    expect(seo.status).toBe(503);
    expect(await seo.json()).toEqual({ message: "Service Unavailable" });
    const market = await account();
    expect(market.status).toBe(500);
    expect(await market.json()).toEqual({ status: "error", msg: "Internal Server Error" });
  });

  it("status with a string body sends it verbatim", async () => {
    await sandbox.injectFault({
      path: ACCOUNT,
      kind: "status",
      status: 502,
      body: "<html>Bad Gateway</html>",
      headers: { "content-type": "text/html" },
    });
    const res = await account();
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toBe("text/html");
    expect(await res.text()).toBe("<html>Bad Gateway</html>");
  });

  it("malformed answers 200 application/json that does not parse", async () => {
    await sandbox.injectFault({ path: ACCOUNT, kind: "malformed" });
    const res = await account();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    await expect(res.json()).rejects.toThrow(SyntaxError);
  });

  it("reset destroys the connection without an answer", async () => {
    await sandbox.injectFault({ path: REPORTS, kind: "reset" });
    const error = await reports().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError); // fetch failed
    expect(String((error as TypeError).cause)).toMatch(/ECONNRESET|other side closed|socket/i);
  });

  it("trickle sends a valid body a few bytes at a time", async () => {
    const normal = await (await account()).text();
    await sandbox.injectFault({ path: ACCOUNT, kind: "trickle", bytesPerSecond: 2000 });
    const res = await account();
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(chunks.length).toBeGreaterThanOrEqual(3); // ~8 writes of ~100 bytes; a loaded machine may merge a few
    expect(Buffer.concat(chunks).toString("utf8")).toBe(normal);
  });

  it("applies `times` to the next N matching requests, then removes itself", async () => {
    await sandbox.injectFault({ path: REPORTS, kind: "status", status: 503, times: 2 });
    expect((await reports()).status).toBe(503);
    expect((await reports()).status).toBe(503);
    expect((await reports()).status).toBe(200);
  });

  it("matches the method and the exact path, or a prefix ending in *", async () => {
    await sandbox.injectFault({ method: "DELETE", path: "/seo/api/v1/reports/*", kind: "status", status: 500 });
    expect((await fetch(`${sandbox.url}${REPORTS}/1`, { headers: auth })).status).toBe(200);
    expect((await reports()).status).toBe(200); // "/seo/api/v1/reports" lacks the "/" the prefix ends with
    expect((await fetch(`${sandbox.url}${REPORTS}/1`, { method: "DELETE", headers: auth })).status).toBe(500);
  });

  it("clearFaults removes every fault", async () => {
    await sandbox.injectFault({ path: REPORTS, kind: "status", status: 500 });
    await sandbox.injectFault({ path: ACCOUNT, kind: "reset" });
    await sandbox.clearFaults();
    expect((await reports()).status).toBe(200);
    expect((await account()).status).toBe(200);
  });

  it("replaceFaults puts its faults in place of all others, in order; an invalid one changes nothing", async () => {
    await sandbox.injectFault({ path: REPORTS, kind: "status", status: 500 });
    await sandbox.injectFault({ path: ACCOUNT, kind: "reset" });
    const ids = await sandbox.replaceFaults([
      { path: REPORTS, kind: "status", status: 429, times: 1 },
      { path: REPORTS, kind: "status", status: 502 },
    ]);
    expect(ids).toHaveLength(2);
    expect((await account()).status).toBe(200);
    expect((await reports()).status).toBe(429);
    expect((await reports()).status).toBe(502);
    const refused = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ path: REPORTS, kind: "explode" }]),
    });
    expect(refused.status).toBe(400);
    expect((await reports()).status).toBe(502);
  });

  it.each([
    [{ path: REPORTS, kind: "explode" }],
    [{ path: "seo/api", kind: "hang" }],
    [{ path: REPORTS, kind: "status", status: 700 }],
    [{ path: REPORTS, kind: "latency", latency: 100 }],
    [{ kind: "hang" }],
  ])("rejects the invalid spec %j with 400", async (spec) => {
    const res = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(spec),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("Invalid fault spec.");
  });

  it("rejects a body that is not JSON with 400", async () => {
    const res = await fetch(`${sandbox.url}/__sandbox/faults`, { method: "POST", body: "kind=hang" });
    expect(res.status).toBe(400);
  });
});

describe("hang", () => {
  it("never answers, and close() still returns promptly, ending the hung connection", async () => {
    const own = await startTestSandbox();
    try {
      await own.injectFault({ path: ACCOUNT, kind: "hang" });
      const timedOut = await fetch(`${own.url}${ACCOUNT}?api_key=${SANDBOX_KEYS.items}`, {
        signal: AbortSignal.timeout(300),
      }).then(
        () => null,
        (e: unknown) => e,
      );
      expect((timedOut as Error).name).toBe("TimeoutError");

      // A second hung request stays open until close() destroys its socket.
      const ended = new Promise<string>((resolve) => {
        const req = request(`${own.url}${ACCOUNT}?api_key=${SANDBOX_KEYS.items}`, (res) =>
          resolve(`answered ${res.statusCode}`),
        );
        req.on("error", (error) => resolve(`ended: ${(error as NodeJS.ErrnoException).code}`));
        req.end();
      });
      await expect.poll(async () => (await own.requests()).length).toBe(2);
      await own.close();
      expect(await ended).toMatch(/^ended: (ECONNRESET|ECONNREFUSED|EPIPE)/);
    } finally {
      await own.close(); // idempotent
    }
  });
});

describe("request log", () => {
  it("records method, path, query, headers (Authorization too) and form fields", async () => {
    await fetch(`${sandbox.url}${REPORTS}?per_page=25&search=caf%C3%A9`, {
      headers: { ...auth, "x-request-id": "abc-123" },
    });
    await fetch(`${sandbox.url}${REPORTS}/3`, {
      method: "PUT",
      headers: auth,
      body: new URLSearchParams({ privacy: "2", password: "pa ss" }),
    });
    await fetch(`${sandbox.url}/market/api/purchases/validation`, {
      method: "POST",
      body: new URLSearchParams({ api_key: SANDBOX_KEYS.items, purchase_code: "abc" }),
    });
    const [list, update, validation, ...rest] = await sandbox.requests();
    expect(rest).toEqual([]);
    expect(list).toMatchObject({ method: "GET", path: REPORTS, query: { per_page: "25", search: "café" }, form: null });
    expect(list!.headers).toMatchObject({ authorization: `Bearer ${SANDBOX_KEYS.reports}`, "x-request-id": "abc-123" });
    expect(Date.parse(list!.at)).toBeLessThanOrEqual(Date.now());
    expect(update).toMatchObject({
      method: "PUT",
      path: `${REPORTS}/3`,
      query: {},
      form: { privacy: "2", password: "pa ss" },
    });
    expect(update!.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(validation).toMatchObject({
      method: "POST",
      path: "/market/api/purchases/validation",
      form: { api_key: SANDBOX_KEYS.items, purchase_code: "abc" },
    });
  });

  it("records repeated parameters as arrays, requests that faults answered, and not the control calls", async () => {
    await sandbox.injectFault({ path: ACCOUNT, kind: "status", status: 503, times: 1 });
    await fetch(`${sandbox.url}${ACCOUNT}?api_key=a&api_key=b`);
    const log = await sandbox.requests();
    expect(log).toHaveLength(1);
    expect(log[0]!.query).toEqual({ api_key: ["a", "b"] });
  });

  it("clearRequests empties it", async () => {
    await account();
    expect(await sandbox.requests()).toHaveLength(1);
    await sandbox.clearRequests();
    expect(await sandbox.requests()).toEqual([]);
  });

  it("records a body over 1 MB, which is refused with 413", async () => {
    const res = await reports({
      method: "POST",
      body: new URLSearchParams({ url: `https://x.example/${"a".repeat(1_100_000)}` }),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/larger than/);
    const [logged] = await sandbox.requests();
    expect(logged).toMatchObject({ method: "POST", path: REPORTS, form: null });
  });
});

describe("keys", () => {
  it("records which key each request carried: area A's Bearer token, area B's api_key", async () => {
    await reports();
    await account();
    await fetch(`${sandbox.url}/market/api/purchases/validation`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `api_key=${SANDBOX_KEYS.items}&purchase_code=x`,
    });
    await fetch(`${sandbox.url}${REPORTS}`);
    expect((await sandbox.requests()).map((r) => r.key)).toEqual([
      SANDBOX_KEYS.reports,
      SANDBOX_KEYS.items,
      SANDBOX_KEYS.items,
      null,
    ]);
  });

  it("accepts a second built-in key per area, to rotate to (the demo's Upstream connections page)", async () => {
    const next = { authorization: `Bearer ${SANDBOX_KEYS.reportsNext}` };
    expect((await fetch(`${sandbox.url}${REPORTS}`, { headers: next })).status).toBe(200);
    const main = await (await account()).json();
    const nextAccount = await fetch(`${sandbox.url}${ACCOUNT}?api_key=${SANDBOX_KEYS.itemsNext}`);
    expect([nextAccount.status, await nextAccount.json()]).toEqual([200, main]);
  });

  it("accepts a key issued through the control API and rejects one revoked, as an upstream's dashboard does", async () => {
    const issued = "issued-in-a-test-0042";
    expect((await fetch(`${sandbox.url}${REPORTS}`, { headers: { authorization: `Bearer ${issued}` } })).status).toBe(
      401,
    );
    await sandbox.setKey("reports", issued, true);
    expect((await fetch(`${sandbox.url}${REPORTS}`, { headers: { authorization: `Bearer ${issued}` } })).status).toBe(
      200,
    );
    await sandbox.setKey("reports", issued, false);
    expect((await fetch(`${sandbox.url}${REPORTS}`, { headers: { authorization: `Bearer ${issued}` } })).status).toBe(
      401,
    );

    await sandbox.setKey("items", SANDBOX_KEYS.items, false);
    expect((await account()).status).not.toBe(200);
    await sandbox.setKey("items", SANDBOX_KEYS.items, true);
    expect((await account()).status).toBe(200);

    const refused = await fetch(`${sandbox.url}/__sandbox/keys`, {
      method: "POST",
      body: JSON.stringify({ area: "elsewhere", key: "k", accept: true }),
    });
    expect(refused.status).toBe(400);
  });
});

describe("reset", () => {
  it("reseeds the data and clears faults and the log", async () => {
    await reports({ method: "POST", body: new URLSearchParams({ url: "https://gone-after-reset.example/" }) });
    await fetch(`${sandbox.url}/seo/api/v1/projects/my%20shop`, { method: "DELETE", headers: auth });
    await sandbox.injectFault({ path: ACCOUNT, kind: "status", status: 500 });
    await sandbox.reset();
    expect(await sandbox.requests()).toEqual([]);
    expect((await account()).status).toBe(200);
    const list = (await (await reports()).json()) as { meta: { total: number }; data: { id: number }[] };
    expect(list.meta.total).toBe(160);
    expect(list.data[0]!.id).toBe(160);
    const projects = (await (await fetch(`${sandbox.url}/seo/api/v1/projects`, { headers: auth })).json()) as {
      meta: { total: number };
    };
    expect(projects.meta.total).toBe(13);
  });
});

describe("a report's result", () => {
  const regenerate = (id: number) =>
    fetch(`${sandbox.url}${REPORTS}/${id}`, {
      method: "PATCH",
      headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
      body: "results=1",
    }).then((res) => res.json() as Promise<{ data: { result: string; generated_at: string } }>);
  const control = (id: number, body: unknown) =>
    fetch(`${sandbox.url}/__sandbox/reports/${id}/result`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("is what the next regeneration gives, once, at the time asked", async () => {
    expect((await control(7, { result: "bad", generated_at: "2026-11-20T08:00:00Z" })).status).toBe(200);
    expect((await regenerate(7)).data).toMatchObject({ result: "bad", generated_at: "2026-11-20T08:00:00Z" });
    expect((await control(7, { result: "good" })).status).toBe(200);
    const next = await regenerate(7);
    expect(next.data.result).toBe("good");
    expect(Date.parse(next.data.generated_at)).toBeGreaterThan(Date.parse("2026-11-20T08:00:00Z"));
  });

  it("changes the report at once with when: now, and refuses an unknown report or a bad spec", async () => {
    const res = await control(8, { result: "decent", generated_at: "2026-11-21T09:30:00Z", when: "now" });
    expect(((await res.json()) as { data: unknown }).data).toMatchObject({
      id: 8,
      result: "decent",
      generated_at: "2026-11-21T09:30:00Z",
    });
    const shown = (await (await fetch(`${sandbox.url}${REPORTS}/8`, { headers: auth })).json()) as {
      data: { result: string };
    };
    expect(shown.data.result).toBe("decent");
    expect((await control(99_999, { result: "bad" })).status).toBe(404);
    expect((await control(8, { result: "awful" })).status).toBe(400);
    expect((await control(8, { result: "bad", extra: 1 })).status).toBe(400);
  });
});

describe("without control", () => {
  it("serves no /__sandbox routes", async () => {
    const plain = await startTestSandbox({ control: false });
    try {
      for (const [method, path] of [
        ["GET", "/__sandbox/requests"],
        ["POST", "/__sandbox/faults"],
        ["POST", "/__sandbox/reset"],
        ["POST", "/__sandbox/purchases/11111111-1111-4111-8111-111111111111"],
      ] as const) {
        const res = await fetch(`${plain.url}${path}`, { method, body: method === "POST" ? "{}" : undefined });
        expect(res.status).toBe(404);
      }
    } finally {
      await plain.close();
    }
  });
});
