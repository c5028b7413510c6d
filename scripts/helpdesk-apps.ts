// The two helpdesk sidebar apps (helpdesk/zendesk, helpdesk/freshdesk) as their vendors' uploaders take them: each
// app's own files at the root of its zip, the shared card (helpdesk/shared/verdicts.{js,css}) copied in beside its
// script and stylesheet, and the Gatehouse address the app is packed for written where each vendor wants it:
// - Zendesk sends a secure setting ({{setting.token}}) only to a domain listed in the manifest's domainWhitelist, so
//   the host goes there, and the address becomes the default of the plain setting gatehouse_url;
// - Freshworks' request template takes the host from the installation parameter gatehouse_host (a bare host name,
//   no scheme: its rule for a template's host), whose default becomes the packed host.
// Read by `npm run helpdesk:pack` (./helpdesk-pack.ts), its test, the browser tests and the screenshots, so that each
// of them serves exactly what is packed.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const HELPDESK_VENDORS = ["zendesk", "freshdesk"] as const;
export type HelpdeskVendor = (typeof HELPDESK_VENDORS)[number];

const ROOT = path.resolve(__dirname, "..");
export const HELPDESK_DIR = path.join(ROOT, "helpdesk");

/** Where each app's page, script and stylesheet live inside its zip (the shared card goes beside them). */
export const APP_LAYOUT: Record<HelpdeskVendor, { page: string; scripts: string; styles: string }> = {
  zendesk: { page: "assets/iframe.html", scripts: "assets", styles: "assets" },
  freshdesk: { page: "app/index.html", scripts: "app/scripts", styles: "app/styles" },
};

/**
 * The address an app is packed for: https, a host name (Freshworks refuses an IP address as a template's host), no
 * path. Returns the sentence to show when it is not one.
 */
export function gatehouseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not an address: give Gatehouse's https:// address, e.g. https://gatehouse.example.com`;
  }
  if (url.protocol !== "https:")
    return "must start with https://: both vendors' proxies send the token only over https";
  if (/^[\d.]+$/.test(url.hostname) || url.hostname.startsWith("["))
    return "must name a host, not an IP address: Freshworks' request templates take host names only";
  if (url.port !== "")
    return "must use https's own port (443): Freshworks' request templates take a host name without a port";
  if (url.pathname !== "/" || url.search || url.hash)
    return "must be Gatehouse's address alone, without a path (the apps add /api/helpdesk/lookup)";
  return null;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

function json(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
}

interface ZendeskManifest {
  domainWhitelist: string[];
  parameters: { name: string; default?: string }[];
}

interface Iparams {
  gatehouse_host: { default_value?: string };
}

/** Every file of the vendor's app, by its path in the zip, for Gatehouse at `gatehouseUrl` (checked before). */
export function helpdeskAppFiles(vendor: HelpdeskVendor, gatehouseUrl: string): Map<string, Buffer> {
  const problem = gatehouseUrlProblem(gatehouseUrl);
  if (problem) throw new Error(`The Gatehouse address ${problem}.`);
  const url = new URL(gatehouseUrl);
  const appDir = path.join(HELPDESK_DIR, vendor);
  const files = new Map<string, Buffer>();
  for (const file of filesUnder(appDir)) files.set(file, readFileSync(path.join(appDir, file)));

  const layout = APP_LAYOUT[vendor];
  files.set(`${layout.scripts}/verdicts.js`, readFileSync(path.join(HELPDESK_DIR, "shared", "verdicts.js")));
  files.set(`${layout.styles}/verdicts.css`, readFileSync(path.join(HELPDESK_DIR, "shared", "verdicts.css")));

  if (vendor === "zendesk") {
    const manifest = JSON.parse(files.get("manifest.json")!.toString("utf8")) as ZendeskManifest;
    manifest.domainWhitelist = [url.hostname];
    for (const parameter of manifest.parameters) if (parameter.name === "gatehouse_url") parameter.default = url.origin;
    files.set("manifest.json", json(manifest));
  } else {
    const iparams = JSON.parse(files.get("config/iparams.json")!.toString("utf8")) as Iparams;
    iparams.gatehouse_host.default_value = url.hostname;
    files.set("config/iparams.json", json(iparams));
  }
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}
