// Codes inside a pasted text: one is taken (and the checker says so), two or more are offered to choose from, and a
// code on its own is left to the normaliser.
import { describe, expect, it } from "vitest";

import { codeInText, findPurchaseCodes } from "@/lib/purchases/find-codes";

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
