// CSV cells (RFC 4180): quoted when they hold a comma, a quote or a line break, a formula's first character
// defused, empty for null.
import { describe, expect, it } from "vitest";

import { CSV_BOM, csvLine } from "@/lib/csv";

describe("csvLine", () => {
  it("quotes what must be quoted, doubles quotes, and ends with CRLF", () => {
    expect(csvLine(["a", 'say "hi"', "x,y", "two\nlines", null, undefined, 3, true])).toBe(
      'a,"say ""hi""","x,y","two\nlines",,,3,true\r\n',
    );
  });

  it("keeps a spreadsheet from running a cell that starts like a formula", () => {
    expect(csvLine(["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "a=b"])).toBe("'=1+1,'+1,'-1,'@SUM(A1),'\tx,a=b\r\n");
    // Numbers are numbers, even negative ones.
    expect(csvLine([-1])).toBe("-1\r\n");
  });

  it("opens with a byte-order mark for spreadsheets", () => {
    expect(CSV_BOM).toBe("\ufeff");
  });
});
