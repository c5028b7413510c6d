// A download read page by page as the client reads: the head first, then each page after the last row sent,
// closing at the first short page; a cap ends the file with its sentence; a failing page cuts the stream short.
import { describe, expect, it } from "vitest";

import { pagedStream } from "@/lib/db/paged-stream";

const rows = Array.from({ length: 25 }, (_, i) => i + 1);

/** Pages of `rows` after `last`, counting the reads. */
function source() {
  const asked: Array<{ after: number | null; limit: number }> = [];
  return {
    asked,
    page: async (last: number | null, limit: number) => {
      asked.push({ after: last, limit });
      return rows.filter((n) => n > (last ?? 0)).slice(0, limit);
    },
  };
}

const read = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe("pagedStream", () => {
  it("sends the head, then every row by keyset pages, and reads no more than it needs", async () => {
    const { asked, page } = source();
    const text = await read(
      pagedStream<number>({
        head: "n\n",
        page,
        encode: (ns) => ns.map((n) => `${n}\n`).join(""),
        pageRows: 10,
        failureEvent: "test_failed",
      }),
    );
    expect(text).toBe(`n\n${rows.map((n) => `${n}\n`).join("")}`);
    expect(asked).toEqual([
      { after: null, limit: 10 },
      { after: 10, limit: 10 },
      { after: 20, limit: 10 },
    ]);
  });

  it("stops at the cap with its sentence, having asked one row more to know it was cut", async () => {
    const { asked, page } = source();
    const text = await read(
      pagedStream<number>({
        page,
        encode: (ns) => ns.join(",") + ",",
        pageRows: 10,
        cap: { maxRows: 12, tooMany: "stopped" },
        failureEvent: "test_failed",
      }),
    );
    expect(text).toBe("1,2,3,4,5,6,7,8,9,10,11,12,stopped");
    expect(asked.at(-1)).toEqual({ after: 10, limit: 3 });
  });

  it("ends exactly at the cap without the sentence when nothing is left", async () => {
    const text = await read(
      pagedStream<number>({
        page: source().page,
        encode: (ns) => ns.join(",") + ",",
        pageRows: 10,
        cap: { maxRows: 25, tooMany: "stopped" },
        failureEvent: "test_failed",
      }),
    );
    expect(text.endsWith("25,")).toBe(true);
  });

  it("errors the stream when a page cannot be read (the headers are sent: the download is cut short)", async () => {
    const stream = pagedStream<number>({
      page: async () => {
        throw new Error("the store went away");
      },
      encode: () => "",
      pageRows: 10,
      failureEvent: "test_failed",
    });
    await expect(read(stream)).rejects.toThrow("the store went away");
  });
});
