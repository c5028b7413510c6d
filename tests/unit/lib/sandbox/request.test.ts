// What the sandbox reads of a request, over a real loopback server: the key it carried (Bearer, form, query,
// X-Api-Key), its target ("//x" a path), and its body up to the cap.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  isFormBody,
  keyCarried,
  MAX_BODY_BYTES,
  parseRequestTarget,
  readBody,
  toRecord,
  TOO_LARGE,
} from "@/lib/sandbox/request";

/** What the server read of the last request. */
let read: (req: IncomingMessage) => Promise<unknown> = async () => null;
let url = "";
const server = createServer((req, res) => {
  void read(req).then((value) => res.end(JSON.stringify(value ?? null)));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function ask(path: string, init: RequestInit, reader: (req: IncomingMessage) => Promise<unknown>) {
  read = reader;
  return (await fetch(`${url}${path}`, init)).json();
}

describe("the sandbox's request reading", () => {
  it("takes the key from a Bearer header first, then a form, the query, X-Api-Key", async () => {
    const key = async (req: IncomingMessage) => {
      const target = parseRequestTarget(req.url ?? "/")!;
      const body = await readBody(req);
      const form = body !== TOO_LARGE && isFormBody(req) ? new URLSearchParams(body.toString("utf8")) : null;
      return keyCarried(req, target.searchParams, form);
    };
    expect(await ask("/x?api_key=q", { headers: { authorization: "Bearer b" } }, key)).toBe("b");
    expect(
      await ask(
        "/x?api_key=q",
        { method: "POST", body: new URLSearchParams({ api_key: "f" }), headers: { "x-api-key": "h" } },
        key,
      ),
    ).toBe("f");
    expect(await ask("/x?api_key=q", { headers: { "x-api-key": "h" } }, key)).toBe("q");
    expect(await ask("/x", { headers: { "x-api-key": "h" } }, key)).toBe("h");
    expect(await ask("/x", {}, key)).toBeNull();
  });

  it("reads '//x' as a path, and repeated query keys as a list", async () => {
    expect(parseRequestTarget("//evil.example/x")?.pathname).toBe("//evil.example/x");
    expect(toRecord(new URLSearchParams("a=1&b=2&b=3"))).toEqual({ a: "1", b: ["2", "3"] });
  });

  it("reads a body up to the cap, and says TOO_LARGE past it", async () => {
    const size = async (req: IncomingMessage) => {
      const body = await readBody(req);
      return body === TOO_LARGE ? "too large" : body.length;
    };
    expect(await ask("/x", { method: "POST", body: "x".repeat(1000) }, size)).toBe(1000);
    expect(await ask("/x", { method: "POST", body: "x".repeat(MAX_BODY_BYTES + 1) }, size)).toBe("too large");
  });
});
