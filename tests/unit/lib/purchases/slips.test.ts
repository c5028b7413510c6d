// Almost-codes: the one slip a code is from the UUID shape, named, and the mend when it is certain.
import { describe, expect, it } from "vitest";

import { findSlip, slipFor } from "@/lib/purchases/slips";

const CODE = "9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e60";

describe("findSlip", () => {
  it.each([
    ["letter O for 0", `${CODE.slice(0, 35)}O`, "letter O at position 36 — did you mean 0?", CODE],
    [
      "letter o for 0, upper-case code",
      `${CODE.slice(0, 35).toUpperCase()}o`,
      "letter o at position 36 — did you mean 0?",
      CODE,
    ],
    ["letter l for 1", CODE.replace("1a0b", "la0b"), "letter l at position 25 — did you mean 1?", CODE],
    [
      "letter I for 1 and O for 0",
      CODE.replace("1a0b", "IaOb"),
      "letter I at position 25 — did you mean 1? (and 1 more like it)",
      CODE,
    ],
    ["letter O at position 27", CODE.replace("1a0b", "1aOb"), "letter O at position 27 — did you mean 0?", CODE],
    [
      "spaces for hyphens",
      CODE.replace(/-/g, " "),
      "a space at position 9 — did you mean a hyphen? (and 3 more like it)",
      CODE,
    ],
    ["a full stop after the code", `${CODE}.`, "an extra '.' at position 37 — did you mean to leave it out?", CODE],
    [
      "a doubled hyphen",
      CODE.replace("-5b4a", "--5b4a"),
      "an extra hyphen at position 9 — did you mean to leave it out?",
      CODE,
    ],
  ])("%s: named and mended", (_, input, slip, code) => {
    expect(findSlip(input)).toEqual({ slip, code });
  });

  it.each([
    ["a character missing", CODE.slice(0, 35), "one character missing in the last group (11, not 12)"],
    [
      "a digit too many",
      `${CODE}5`,
      "one character too many in the last group (13, not 12) — which one cannot be told",
    ],
    [
      "a bare code one short",
      CODE.replace(/-/g, "").slice(1),
      "31 hexadecimal digits, one missing (a purchase code has 32 without hyphens)",
    ],
  ])("%s: named, not guessed", (_, input, slip) => {
    expect(findSlip(input)).toEqual({ slip, code: null });
  });

  it.each([
    ["a UUID", CODE],
    ["a UUID in upper case", CODE.toUpperCase()],
    ["two slips of different kinds", `${CODE.slice(0, 34)}O`],
    ["a code of another shape", "ABC-123-XYZ"],
    ["a letter that is no digit's look-alike", `${CODE.slice(0, 35)}g`],
    ["nothing", "  "],
  ])("%s: no slip", (_, input) => {
    expect(findSlip(input)).toBeNull();
  });

  it("offers nothing under exact, whose codes are not UUIDs", () => {
    expect(slipFor(`${CODE.slice(0, 35)}O`, "exact")).toBeNull();
    expect(slipFor(`${CODE.slice(0, 35)}O`, "uuid")?.code).toBe(CODE);
  });
});
