// Lists of purchase codes as sellers bring them: pasted lines, .txt files, spreadsheet exports as .csv.
import { describe, expect, it } from "vitest";

import { parseCodeList } from "@/lib/purchases/code-list";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const C = "33333333-3333-4333-8333-333333333333";

describe("parseCodeList: lines", () => {
  it("reads one code per line, keeping order and duplicates and dropping blank lines", () => {
    expect(parseCodeList(`${A}\n\n${B}\n   \n${A}\n`)).toEqual({ codes: [A, B, A], format: "lines", column: null });
  });

  it("accepts CRLF and lone CR line ends", () => {
    expect(parseCodeList(`${A}\r\n${B}\r${C}\r\n`).codes).toEqual([A, B, C]);
  });

  it("keeps codes raw: spaces and look-alikes are the normaliser's to judge", () => {
    expect(parseCodeList(`  ${A}  \n${B.replace("-", "\u2013")}`).codes).toEqual([
      `  ${A}  `,
      B.replace("-", "\u2013"),
    ]);
  });

  it("drops a line of nothing but invisible characters, and a leading byte-order mark", () => {
    expect(parseCodeList(`\ufeff${A}\n\u200b\n${B}`)).toEqual({ codes: [A, B], format: "lines", column: null });
  });

  it("reads a .txt file as lines even when its codes hold commas", () => {
    expect(parseCodeList(`a,1\nb,2`, { fileName: "codes.txt" })).toEqual({
      codes: ["a,1", "b,2"],
      format: "lines",
      column: null,
    });
  });

  it("answers no codes for empty text", () => {
    expect(parseCodeList("")).toEqual({ codes: [], format: "lines", column: null });
    expect(parseCodeList(" \n\r\n ")).toEqual({ codes: [], format: "lines", column: null });
  });
});

describe("parseCodeList: CSV", () => {
  it("takes the purchase_code column of a header row, wherever it is", () => {
    const csv = `buyer,purchase_code,amount\nann,${A},10\nbob,${B},12\n`;
    expect(parseCodeList(csv, { fileName: "sales.csv" })).toEqual({
      codes: [A, B],
      format: "csv",
      column: "purchase_code",
    });
  });

  it("recognises pasted CSV by its header, without a file name", () => {
    expect(parseCodeList(`Buyer;Purchase Code\r\nann;${A}\r\nbob;${B}\r\n`)).toEqual({
      codes: [A, B],
      format: "csv",
      column: "Purchase Code",
    });
  });

  it("matches headings whatever their case, spaces or underscores, and prefers purchase code over code and license", () => {
    expect(parseCodeList(`License,CODE,Purchase-Code\nx,y,${A}`).column).toBe("Purchase-Code");
    expect(parseCodeList(`license,Code\nx,${A}`)).toMatchObject({ codes: [A], column: "Code" });
    expect(parseCodeList(`item,LICENSE\nx,${A}`)).toMatchObject({ codes: [A], column: "LICENSE" });
  });

  it("reads RFC 4180 quotes: separators, doubled quotes and line breaks inside a cell", () => {
    const csv = `"note","code"\n"paid, thanks","${A}"\n"said ""hi""\nand left",${B}\n`;
    expect(parseCodeList(csv, { fileName: "x.csv" })).toEqual({ codes: [A, B], format: "csv", column: "code" });
    expect(parseCodeList(`code,note\n"a,b",x\n"say ""x""",y`).codes).toEqual(["a,b", 'say "x"']);
  });

  it("reads semicolons (a European spreadsheet's export) and tabs", () => {
    expect(parseCodeList(`code;amount\n${A};1,50\n${B};2,00`).codes).toEqual([A, B]);
    expect(parseCodeList(`name\tcode\nann\t${A}`).codes).toEqual([A]);
  });

  it("strips a byte-order mark before the header", () => {
    expect(parseCodeList(`\ufeffpurchase_code\n${A}`, { fileName: "e.csv" })).toEqual({
      codes: [A],
      format: "csv",
      column: "purchase_code",
    });
  });

  it("drops blank rows and blank cells, keeping order and duplicates", () => {
    const csv = `name,code\nann,${A}\n\n,\nbob,\ncid,${B}\n,,\ndan,${A}\n`;
    expect(parseCodeList(csv).codes).toEqual([A, B, A]);
  });

  it("without a named column takes the first, and skips a header row that has no digits", () => {
    expect(parseCodeList(`Key,Buyer\n${A},ann\n${B},bob`, { fileName: "k.csv" })).toEqual({
      codes: [A, B],
      format: "csv",
      column: "Key",
    });
  });

  it("keeps every code of a .csv without a header row", () => {
    expect(parseCodeList(`${A},ann\n${B},bob\n`, { fileName: "k.CSV" })).toEqual({
      codes: [A, B],
      format: "csv",
      column: null,
    });
    expect(parseCodeList(`${A}\r\n${B}\r\n`, { fileName: "k.csv" })).toEqual({
      codes: [A, B],
      format: "csv",
      column: null,
    });
  });

  it("answers no codes for a header alone", () => {
    expect(parseCodeList("purchase_code\n")).toEqual({ codes: [], format: "csv", column: "purchase_code" });
  });
});
