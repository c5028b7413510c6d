// Codes inside a pasted text: one is taken (and the checker says so), two or more are offered to choose from, and a
// code on its own is left to the normaliser.
import { describe, expect, it } from "vitest";

import { codeInText, findPurchaseCodes, findTicketCodes } from "@/lib/purchases/find-codes";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";

describe("findPurchaseCodes", () => {
  it("finds each UUID-shaped code once, in lower case, in the order it first appears", () => {
    expect(findPurchaseCodes(`Hi, my code is ${B.toUpperCase()}. Also ${A}, and again ${B}.`)).toEqual([B, A]);
  });

  it("takes no run glued to other letters or digits: two pasted codes run together are not a code", () => {
    expect(findPurchaseCodes(`${A}x`)).toEqual([]);
    expect(findPurchaseCodes(`33333333-3333-4333-8333-37d1d43a5-9910-4dd8-be68-7e49188718de33333333333`)).toEqual([]);
    expect(findPurchaseCodes(`${A}${A}`)).toEqual([]);
  });
});

describe("codeInText", () => {
  it("reduces a sentence or an e-mail that holds one code to that code", () => {
    expect(codeInText(`Purchase code: ${A}`)).toEqual({ found: A });
    expect(
      codeInText(`Hello,\n\nI bought your plugin.\nPurchase code (licence): ${A.toUpperCase()}\n\nThanks, Jo`),
    ).toEqual({ found: A });
  });

  it("asks which, when the text holds two codes", () => {
    expect(codeInText(`Old: ${A}\nNew: ${B}`)).toEqual({ choose: [A, B] });
  });

  it("leaves a code on its own, however wrapped, and a text without a code, to the normaliser", () => {
    for (const text of [A, ` ${A} `, `{${A}}`, `"${A}"`, `urn:uuid:${A}`, "not-a-real-code", "Purchase code: abc"])
      expect(codeInText(text)).toBeNull();
  });
});

describe("findTicketCodes", () => {
  const codes = (text: string) =>
    findTicketCodes(text).map((found) =>
      found.kind === "code" ? found.code : `almost ${found.text} → ${found.slip.code}`,
    );

  it("finds codes in a thread in the order they appear, once each: upper case, braces, quoted replies", () => {
    const thread = `Subject: {${B.toUpperCase()}}\nMy code is ${A}.\n\n> On Monday you wrote:\n> code (${A})\n--\nJo, +44 20 7946 0958`;
    expect(codes(thread)).toEqual([B, A]);
  });

  it("reads a code as a mail client leaves it: no-break spaces, zero-width spaces, en dashes, full-width digits", () => {
    expect(codes(`code:\u00a0${A.slice(0, 4)}\u200b${A.slice(4, 8)}\u2013${A.slice(9)}`)).toEqual([A]);
    expect(codes(A.replace(/1/g, "\uff11"))).toEqual([A]);
  });

  it("takes 32 hex digits without hyphens as a code, as the checker does", () => {
    expect(codes(`code ${A.replace(/-/g, "").toUpperCase()} thanks`)).toEqual([A]);
  });

  it("names an almost-code with its slip, and its mend when certain", () => {
    expect(codes(`mine: 1111111l-1111-4111-8111-111111111111, and ${B.replace(/-/g, " ")} too`)).toEqual([
      `almost 1111111l-1111-4111-8111-111111111111 → ${A}`,
      `almost ${B.replace(/-/g, " ")} → ${B}`,
    ]);
    const [missing] = findTicketCodes("1111111-1111-4111-8111-111111111111");
    expect(missing).toMatchObject({ kind: "almost", slip: { code: null, slip: expect.stringContaining("missing") } });
  });

  it("reads an almost-code whose mend is a code found as it is as that one code", () => {
    expect(codes(`${A} or 1111111l-1111-4111-8111-111111111111`)).toEqual([A]);
  });

  it("takes no phone number, reference or sentence of hex-looking words for a code", () => {
    expect(codes("Call +44 0123 4567 8901 2345 6789 0123 4567 89, order 1234-5678-9012, a bad face cafe")).toEqual([]);
    expect(codes(`${A}-extra`)).toEqual([]);
    // One letter glued to a code is an almost-code (one character too many), not a code.
    expect(codes(`x${B}`)).toEqual([`almost x${B} → ${B}`]);
  });

  it("reads a long thread in time: 100,000 characters of prose and numbers", () => {
    const text = "Reply 2026-11-28 ticket 4211 abc def 0123 4567 89ab cdef ".repeat(1800).slice(0, 100_000);
    const started = performance.now();
    expect(codes(`${text} ${A}`)).toEqual([A]);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
