// Small helpers shared by the portal's forms.

/** Field errors without the fields that have none, as ErrorSummary wants them. */
export function presentErrors(errors: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).filter((entry): entry is [string, string] => Boolean(entry[1])));
}
