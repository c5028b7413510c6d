// How a refused field is told to a person, in one voice for the API's error envelope and the portal's forms: the
// field's label ("time_zone" reads "Time zone", "url" reads "URL") and a sentence of its own ("url must be
// https://" reads "Must be https://."), so a summary says "URL: Must be https://." rather than a raw key.
// Pure: the gateway (lib/api/errors.ts) and the browser (components/use-api-form.ts) both use it.

const ACRONYMS = new Set(["url", "id", "ip", "csv", "api", "kek", "oidc", "sso"]);

/** A field's key as a person reads it; a key that is not one of our snake_case names is shown as it was sent. */
export function fieldLabel(key: string): string {
  const head = key.split(".")[0]!;
  if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(head)) return head;
  const text = head
    .split("_")
    .map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word))
    .join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A field's message without its key in front, as a sentence: "url must be https://" → "Must be https://.". A
 * message that does not start with its key is already a sentence of its own, and is kept as it is.
 */
export function fieldSentence(key: string, message: string): string {
  if (!message.startsWith(`${key} `)) return message;
  const text = message.slice(key.length + 1);
  return withStop(text.charAt(0).toUpperCase() + text.slice(1));
}

const withStop = (sentence: string) => (/[.!?)]$/.test(sentence) ? sentence : `${sentence}.`);

/** Every refused field as "Label: Sentence.", one after another. */
export function fieldsSummary(fields: Readonly<Record<string, string>>): string {
  return Object.entries(fields)
    .map(([key, message]) => `${fieldLabel(key)}: ${withStop(fieldSentence(key, message))}`)
    .join(" ");
}
