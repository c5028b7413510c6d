// Where a webhook may go: https and public addresses only (unless WEBHOOK_ALLOW_PRIVATE), checked with the DNS
// answer of the moment; the connection goes to the checked address whatever DNS says later; no redirects, a capped
// read, a deadline.
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { resolveTarget, sendToTarget } from "@/lib/webhooks/target";

const strict = { allowPrivate: false };
const loose = { allowPrivate: true };
const answers = (...addresses: string[]) =>
  (async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))) as never;

describe("resolveTarget", () => {
  it("refuses http unless private targets are allowed, and URLs with credentials", async () => {
    expect(await resolveTarget("http://example.com/hook", strict, answers("93.184.215.14"))).toMatchObject({
      ok: false,
      reason: "must start with https://",
    });
    expect((await resolveTarget("http://example.com/hook", loose, answers("93.184.215.14"))).ok).toBe(true);
    expect(await resolveTarget("https://user:pw@example.com/", strict, answers("93.184.215.14"))).toMatchObject({
      ok: false,
    });
    expect(await resolveTarget("ftp://example.com/", loose, answers("93.184.215.14"))).toMatchObject({ ok: false });
  });

  it("refuses a host any of whose addresses is not public (a DNS answer that now points inside)", async () => {
    expect(
      await resolveTarget("https://hooks.example.com/", strict, answers("93.184.215.14", "10.0.0.5")),
    ).toMatchObject({
      ok: false,
      reason: "resolves to 10.0.0.5, a private address: webhooks go only to public addresses",
    });
    expect(await resolveTarget("https://hooks.example.com/", strict, answers("169.254.169.254"))).toMatchObject({
      ok: false,
    });
    expect(await resolveTarget("https://hooks.example.com/", strict, answers("::ffff:127.0.0.1"))).toMatchObject({
      ok: false,
      reason: expect.stringContaining("IPv4-mapped"),
    });
    expect(await resolveTarget("https://hooks.example.com/", strict, answers("93.184.215.14"))).toMatchObject({
      ok: true,
      target: { address: "93.184.215.14", family: 4 },
    });
  });

  it("allows the demo's receiver on loopback, that URL only, without loosening the rule for any other", async () => {
    const demo = { allowPrivate: false, demoReceiver: "http://127.0.0.1:4010/__receiver" };
    expect(await resolveTarget("http://127.0.0.1:4010/__receiver", demo, answers())).toMatchObject({
      ok: true,
      target: { address: "127.0.0.1", family: 4 },
    });
    for (const other of ["http://127.0.0.1:4010/other", "http://127.0.0.1:4011/__receiver", "https://127.0.0.1/"])
      expect((await resolveTarget(other, demo, answers("127.0.0.1"))).ok, other).toBe(false);
  });

  it("says so when the host does not resolve", async () => {
    const failing = (async () => {
      throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    }) as never;
    expect(await resolveTarget("https://nowhere.invalid/", strict, failing)).toMatchObject({
      ok: false,
      reason: "names a host that does not resolve (nowhere.invalid)",
    });
  });
});

describe("sendToTarget", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });
  const listen = async (handler: RequestListener) => {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  };

  it("connects to the checked address, keeping the URL's host name in Host", async () => {
    let host: string | undefined;
    const port = await listen((request, response) => {
      host = request.headers.host;
      response.writeHead(200).end("ok");
    });
    // rebind.invalid resolves nowhere: only the pinned address can have been used.
    const result = await sendToTarget(
      { url: new URL(`http://rebind.invalid:${port}/hook`), address: "127.0.0.1", family: 4 },
      { "webhook-id": "msg_1" },
      "{}",
    );
    expect(result).toMatchObject({ ok: true, status: 200, excerpt: "ok", error: null });
    expect(host).toBe(`rebind.invalid:${port}`);
  });

  it("does not follow a redirect", async () => {
    let hits = 0;
    const port = await listen((_request, response) => {
      hits += 1;
      response.writeHead(302, { Location: "http://169.254.169.254/" }).end();
    });
    const result = await sendToTarget(
      { url: new URL(`http://127.0.0.1:${port}/`), address: "127.0.0.1", family: 4 },
      {},
      "{}",
    );
    expect(result).toMatchObject({
      ok: false,
      status: 302,
      error: "answered 302 (a redirect, which webhooks do not follow)",
    });
    expect(hits).toBe(1);
  });

  it("reads only the start of a large answer", async () => {
    const port = await listen((_request, response) => {
      response.writeHead(500);
      response.end("x".repeat(5_000_000));
    });
    const result = await sendToTarget(
      { url: new URL(`http://127.0.0.1:${port}/`), address: "127.0.0.1", family: 4 },
      {},
      "{}",
    );
    expect(result.ok).toBe(false);
    expect(result.excerpt).toHaveLength(1_000);
  });

  it("gives up at its deadline", async () => {
    const port = await listen(() => {
      // never answers
    });
    const result = await sendToTarget(
      { url: new URL(`http://127.0.0.1:${port}/`), address: "127.0.0.1", family: 4 },
      {},
      "{}",
      300,
    );
    expect(result).toMatchObject({ ok: false, status: null, error: "no answer within 0.3 s" });
  });

  it("answers an address that fails at once (ENETUNREACH) as a failed attempt, on https too, with nothing escaping", async () => {
    const escaped: unknown[] = [];
    const keep = (error: unknown) => escaped.push(error);
    process.on("uncaughtException", keep);
    try {
      // A broadcast address fails at connect() on any host, as an IPv6 address does on an IPv4-only host.
      for (const url of ["https://hooks.example.com/hook", "http://hooks.example.com/hook"]) {
        const result = await sendToTarget({ url: new URL(url), address: "255.255.255.255", family: 4 }, {}, "{}");
        expect(result, url).toMatchObject({ ok: false, status: null, error: "the host cannot be reached" });
      }
      // An escaping error is thrown on a later turn of the event loop: let one pass.
      await new Promise((resolve) => setImmediate(resolve));
      expect(escaped).toEqual([]);
    } finally {
      process.off("uncaughtException", keep);
    }
  });
});
