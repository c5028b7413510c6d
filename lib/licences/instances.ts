// What an installed copy is, as compared: a domain normalised (a URL's host, lower case, no "www.", no trailing
// dot, IDN as punycode) so that https://WWW.Bücher.de/shop and bücher.de. are one activation; or an id compared
// exactly. And whether a domain is one the item's policy never counts (localhost, *.test, staging.*).
import { domainToASCII } from "node:url";

import { DOMAIN_MAX_LENGTH, INSTANCE_ID_MAX_LENGTH, type LicenceInstanceInput } from "@/lib/contract/licences";

export interface Instance {
  kind: "domain" | "id";
  value: string;
  name: string | null;
}

export type InstanceReading = { ok: true; instance: Instance } | { ok: false; reason: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** A domain as the copy sent it (a bare name, or its site's URL) → the one form activations are compared in. */
export function normaliseDomain(raw: string): { ok: true; domain: string } | { ok: false; reason: string } {
  let host = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) {
    try {
      host = new URL(host).hostname;
    } catch {
      return {
        ok: false,
        reason: "is not a domain or a site's address: send the site's domain, e.g. shop.example.com",
      };
    }
  } else {
    host = host.split(/[/?#]/, 1)[0]!.replace(/:\d+$/, "");
  }
  host = host.replace(/\.+$/, "");
  const ascii = domainToASCII(host);
  if (ascii === "") return { ok: false, reason: "is not a domain: send the site's domain, e.g. shop.example.com" };
  let domain = ascii.toLowerCase();
  if (domain.startsWith("www.") && domain.split(".").length > 2) domain = domain.slice(4);
  if (domain.length > DOMAIN_MAX_LENGTH) {
    return { ok: false, reason: `is longer than a domain may be (${DOMAIN_MAX_LENGTH} characters)` };
  }
  if (!IPV4.test(domain) && !domain.split(".").every((label) => LABEL.test(label))) {
    return { ok: false, reason: "is not a domain: send the site's domain, e.g. shop.example.com" };
  }
  return { ok: true, domain };
}

/** The instance of a request, or why it cannot be one (said in fields["instance.domain"]). */
export function readInstance(input: LicenceInstanceInput): InstanceReading {
  const name = input.name?.trim() || null;
  if (input.domain !== undefined) {
    const read = normaliseDomain(input.domain);
    return read.ok ? { ok: true, instance: { kind: "domain", value: read.domain, name } } : read;
  }
  const id = (input.id ?? "").trim();
  if (id === "" || id.length > INSTANCE_ID_MAX_LENGTH) return { ok: false, reason: "must not be empty" };
  return { ok: true, instance: { kind: "id", value: id, name } };
}

/** Whether a policy's never-counted patterns cover the instance (ids are always counted). */
export function neverCounted(instance: Instance, patterns: readonly string[]): boolean {
  if (instance.kind !== "domain") return false;
  const domain = instance.value;
  return patterns.some((pattern) => {
    if (pattern.startsWith("*.")) return domain.endsWith(pattern.slice(1));
    if (pattern.endsWith(".*")) return domain.startsWith(pattern.slice(0, -1)) && domain.length > pattern.length - 1;
    return domain === pattern;
  });
}
