// The checks the report forms make in the browser before sending, with the same rules as the gateway
// (lib/contract/reports.ts), so a person hears about a mistake at once; the gateway checks again and its field
// errors are shown the same way. Pure.
import { REPORT_PASSWORD_MAX_LENGTH, REPORT_PASSWORD_MIN_LENGTH } from "@/lib/contract/values";

export type PrivacyValue = 0 | 1 | 2;

export const MAX_URL_LENGTH = 2048;

/** What is wrong with a report URL, or undefined when it is fine. */
export function checkReportUrl(value: string): string | undefined {
  const url = value.trim();
  if (url === "") return "Enter the address of the web page, e.g. https://example.com/pricing.";
  if (url.length > MAX_URL_LENGTH) return `The address is too long: at most ${MAX_URL_LENGTH} characters.`;
  if (!/^https?:\/\//i.test(url)) return "Start the address with https:// or http://.";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "This is not a complete web address. Check it for typos.";
  }
  if (parsed.hostname === "") return "The address needs a host name, e.g. https://example.com/.";
  return undefined;
}

/**
 * What is wrong with a report page password. `required` is false when the report is already password-protected
 * and an empty field means "keep the current password".
 */
export function checkReportPassword(value: string, required: boolean): string | undefined {
  if (value === "") return required ? "Enter a password: visitors of the report page will need it." : undefined;
  if (value.length < REPORT_PASSWORD_MIN_LENGTH)
    return `The password is too short: at least ${REPORT_PASSWORD_MIN_LENGTH} characters, so that it cannot be guessed.`;
  if (value.length > REPORT_PASSWORD_MAX_LENGTH)
    return `The password is too long: at most ${REPORT_PASSWORD_MAX_LENGTH} characters.`;
  return undefined;
}

export function parsePrivacy(value: string): PrivacyValue {
  return value === "1" ? 1 : value === "2" ? 2 : 0;
}

export const PRIVACY_OPTIONS = [
  { value: "0", label: "Public", hint: "Anyone with the link can open the report page." },
  { value: "1", label: "Private", hint: "Only the report's owner can open it." },
  { value: "2", label: "Password", hint: "Visitors need the password you set." },
] as const;
