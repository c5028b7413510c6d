// Retry-After, read one way wherever Gatehouse meets it: from an upstream (passed on to our client, and waited out
// by the bulk checks), from the gateway in the browser (forms show the wait), and on the sign-in form's redirect.
// As HTTP defines it: whole seconds, or an HTTP date (IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT"). No zod: the
// browser reads it too.
const SECONDS = /^\d{1,7}$/;
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** How long a Retry-After value asks to wait, in milliseconds (0 for a date already past); null when absent or malformed. */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (SECONDS.test(text)) return Number(text) * 1000;
  if (!HTTP_DATE.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The same wait in whole seconds, rounded up; null when absent or malformed. */
export function retryAfterSeconds(value: string | null | undefined, now: number = Date.now()): number | null {
  const ms = retryAfterMs(value, now);
  return ms === null ? null : Math.ceil(ms / 1000);
}
