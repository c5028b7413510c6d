// Reads a whole body as UTF-8 text (or as bytes), but never more than `maxBytes`: past the cap the stream is cancelled and
// `onTooLarge()` is thrown. Both directions use it: request bodies coming into the gateway and upstream answers.
export async function readCappedText(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  onTooLarge: () => Error,
): Promise<string> {
  return (await readCappedBytes(body, maxBytes, onTooLarge)).toString("utf8");
}

/** The body's bytes as they came (a signed body is checked over these, before any decoding), with the same cap. */
export async function readCappedBytes(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  onTooLarge: () => Error,
): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw onTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
