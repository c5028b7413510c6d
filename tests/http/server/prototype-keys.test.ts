// Query parameters and body fields named like the properties every JavaScript object inherits (`__proto__`,
// `constructor`, `toString`…) are ordinary names to the gateway: refused as unknown, by name, like any typo —
// never silently dropped, never mistaken for a repeat, never an error that names no field.
import { describe, expect, it } from "vitest";

import { setUpGateway } from "@/tests/support/set-up-gateway";

const { sandbox, client: editor } = setUpGateway({ signIn: "editor" });

const INHERITED = ["constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"];

describe("query parameters", () => {
  it.each(INHERITED)("?%s=1 is an unknown query parameter, named", async (name) => {
    await sandbox.clearRequests();
    const res = await editor.request(`/api/reports?${encodeURIComponent(name)}=1`);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_input");
    // Named as it was sent (capitalised when it is one lower-case word), with its sentence.
    expect(res.json.error.message.toLowerCase()).toBe(`${name}: unknown query parameter.`.toLowerCase());
    expect(Object.entries(res.json.error.fields)).toEqual([[name, "Unknown query parameter."]]);
    expect(await sandbox.requests()).toEqual([]);
  });

  it("?__proto__=1 never reaches Gatehouse: Next's router drops it, so it changes nothing", async () => {
    // Next copies the parsed query into a plain object before proxy.ts or a route runs; there `__proto__` is
    // the prototype's setter, so the parameter vanishes. Nothing in the app can see it to refuse it; this
    // states that it has no effect either.
    const plain = await editor.request("/api/reports?per_page=10");
    const withProto = await editor.request("/api/reports?per_page=10&__proto__=1&%5F%5Fproto%5F%5F=2");
    expect(withProto.status).toBe(200);
    expect(withProto.json).toEqual(plain.json);
  });

  it("a repeated inherited name is a repeat, said once", async () => {
    const res = await editor.request("/api/reports?constructor=1&constructor=2");
    expect(res.status).toBe(400);
    expect(Object.entries(res.json.error.fields)).toEqual([
      ["constructor", "constructor is given more than once; give it once"],
    ]);
  });
});

describe("JSON body fields", () => {
  it.each(["__proto__", ...INHERITED])("a body key %s is an unknown field, named", async (name) => {
    await sandbox.clearRequests();
    const body = `{"url":"https://proto.example/","${name}":{"privacy":2}}`;
    const res = await editor.request("/api/reports", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message.toLowerCase()).toBe(`${name}: unknown field.`.toLowerCase());
    expect(Object.keys(res.json.error.fields)).toEqual([name]);
    expect(await sandbox.requests()).toEqual([]);
  });

  it("a nested __proto__ cannot smuggle a field past the schema", async () => {
    const body = '{"__proto__":{"password":"x"},"privacy":0}';
    const res = await editor.request("/api/reports/3", {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.error.fields)).toEqual(["__proto__"]);
    // The gateway's own objects were not touched by the request.
    expect(({} as Record<string, unknown>).password).toBeUndefined();
    const after = await editor.request("/api/reports?per_page=10");
    expect(after.status).toBe(200);
  });
});
