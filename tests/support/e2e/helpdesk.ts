// The helpdesk sidebar apps in Chromium, as their vendors run them, for the browser tests and the screenshots: the
// packed app's files (scripts/helpdesk-apps.ts) served on a made-up https origin, the vendor's SDK replaced by a
// stand-in (./helpdesk-sdk/), and the vendor's server side played here in Node — Zendesk's proxy, which puts the
// secure setting into a whitelisted request, and Freshworks' request templates with their installation parameters.
// Both send the lookup to the REAL Gatehouse under test; the token stays in this process, never in the page.
import { readFileSync } from "node:fs";
import path from "node:path";

import type { Page, Route } from "@playwright/test";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { APP_LAYOUT, helpdeskAppFiles, type HelpdeskVendor } from "@/scripts/helpdesk-apps";

/** The address the apps are packed for in the tests; the stand-in proxies send its requests to the real portal. */
export const TEST_GATEHOUSE_URL = "https://gatehouse.test";
const ZAF_SDK_URL = "https://static.zdassets.com/zendesk_app_framework_sdk/2.0/zaf_sdk.min.js";
const APP_ORIGIN: Record<HelpdeskVendor, string> = {
  zendesk: "https://zendesk-app.test",
  freshdesk: "https://freshdesk-app.test",
};
const FRESHWORKS_CLIENT_PATH = "/__stand-in/fresh-client.js";
const FRESHDESK_DOMAIN = "acme.freshdesk.com";
const FRESHDESK_API_KEY = "stand-in-freshdesk-key";

const standIn = (name: string) => readFileSync(path.join(__dirname, "helpdesk-sdk", name));

/** A ticket as both helpdesks hold it: the first message opens the ticket, the others follow, oldest first. */
export interface TicketFixture {
  id: number;
  subject: string;
  /** Each message as the helpdesk keeps it: HTML. */
  messages: string[];
}

/**
 * A ticket with four codes, as an agent meets them: an almost-code of the sandbox's active code (a letter l for its
 * last 1) in an HTML message, an unknown code, the expired code in a reply that quotes an earlier message, and the
 * code without support a character short. The browser tests and the screenshots (docs/images/helpdesk-*.png) use it.
 */
export const SAMPLE_TICKET: TicketFixture = {
  id: 4211,
  subject: "Two licences, and one code does not work",
  messages: [
    `<p>Hello,</p><p>our codes are <strong>${FIXED_PURCHASE_CODES.active.replace(/1$/, "l")}</strong> and 44444444-4444-4444-8444-444444444444.</p>`,
    "<p>Thanks! Could you send the code of your second licence too?</p>",
    `<div>Here it is: ${FIXED_PURCHASE_CODES.expired}<br>and my colleague's: ${FIXED_PURCHASE_CODES.none.slice(0, -1)}</div>` +
      "<blockquote>On Monday, Support wrote:<br>Thanks! Could you send the code of your second licence too?</blockquote>",
  ],
};

export interface HelpdeskAppOptions {
  /** The real Gatehouse, e.g. PORTAL_URL. */
  portalUrl: string;
  /** The token in the app's secure settings. */
  token: string;
  ticket: TicketFixture;
}

export interface OpenedHelpdeskApp {
  /** The app's page URL (on its made-up origin). */
  url: string;
  /** The requests the vendor's side sent to Gatehouse, as Gatehouse received them (headers included). */
  lookups: { authorization: string | undefined; body: unknown }[];
}

const TEXT = { "content-type": "text/plain; charset=utf-8" };
/** The stand-in SDK on the app's origin reads the vendor's answer across origins, as the real SDKs do. */
const CORS = { "access-control-allow-origin": "*" };

function contentType(file: string): string {
  if (file.endsWith(".html")) return "text/html; charset=utf-8";
  if (file.endsWith(".js")) return "text/javascript; charset=utf-8";
  if (file.endsWith(".css")) return "text/css; charset=utf-8";
  if (file.endsWith(".svg")) return "image/svg+xml";
  return "application/json; charset=utf-8";
}

/** The real Gatehouse's address for a request the vendor's side makes to TEST_GATEHOUSE_URL's host. */
function toPortal(portalUrl: string, pathAndQuery: string): string {
  return new URL(pathAndQuery, portalUrl).toString();
}

async function sendToGatehouse(
  options: HelpdeskAppOptions,
  opened: OpenedHelpdeskApp,
  pathAndQuery: string,
  init: { method: string; headers: Record<string, string>; body: string | undefined },
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  opened.lookups.push({
    authorization: init.headers.Authorization ?? init.headers.authorization,
    body: init.body === undefined ? undefined : JSON.parse(init.body),
  });
  try {
    const response = await fetch(toPortal(options.portalUrl, pathAndQuery), init);
    return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
  } catch {
    // Gatehouse unreachable: the vendor's proxy answers with its own error page, not Gatehouse's JSON.
    return { status: 502, headers: TEXT, text: "Bad gateway" };
  }
}

/** The ticket as ZAF's get() answers it. */
function zendeskData(ticket: TicketFixture) {
  return {
    "ticket.id": ticket.id,
    "ticket.subject": ticket.subject,
    "ticket.comments": ticket.messages.map((value, index) => ({ id: index + 1, value, author: { id: index } })),
    "currentAccount.subdomain": "acme",
  };
}

/** The ticket as Freshdesk's data method answers it (its replies come from Freshdesk's API, below). */
function freshdeskData(ticket: TicketFixture) {
  return {
    ticket: {
      id: ticket.id,
      subject: ticket.subject,
      description: ticket.messages[0] ?? "",
      description_text: ticket.messages[0] === undefined ? "" : htmlToText(ticket.messages[0]),
    },
    domainName: FRESHDESK_DOMAIN,
  };
}

/** Freshdesk's body_text of a message: its text without tags, as Freshdesk's API gives it. */
function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|blockquote)>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&gt;/g, ">")
    .replace(/&lt;/g, "<")
    .replace(/&amp;/g, "&")
    .trim();
}

/** Zendesk's proxy: a secure setting goes only into a request marked secure to a whitelisted domain, in a header. */
async function zendeskProxy(
  route: Route,
  files: Map<string, Buffer>,
  options: HelpdeskAppOptions,
  opened: OpenedHelpdeskApp,
): Promise<void> {
  const manifest = JSON.parse(files.get("manifest.json")!.toString("utf8")) as { domainWhitelist: string[] };
  const request = JSON.parse(route.request().postData() ?? "{}") as {
    url: string;
    type?: string;
    contentType?: string;
    headers?: Record<string, string>;
    secure?: boolean;
    data?: string;
  };
  const url = new URL(request.url);
  const reply = (status: number, responseText: string, headers: Record<string, string>, json: boolean) =>
    route.fulfill({ status: 200, headers: CORS, json: { status, headers, responseText, json } });
  const usesSetting = Object.values(request.headers ?? {}).some((value) => value.includes("{{setting."));
  if (usesSetting && (!request.secure || !manifest.domainWhitelist.includes(url.hostname))) {
    return reply(403, "Proxy error: secure settings are only sent to the domains in domainWhitelist", TEXT, false);
  }
  if (url.origin !== TEST_GATEHOUSE_URL) return reply(502, "Proxy error: host unreachable", TEXT, false);
  const headers = Object.fromEntries(
    Object.entries(request.headers ?? {}).map(([name, value]) => [
      name,
      value.replaceAll("{{setting.token}}", options.token),
    ]),
  );
  if (request.contentType) headers["Content-Type"] = request.contentType;
  const answer = await sendToGatehouse(options, opened, url.pathname + url.search, {
    method: request.type ?? "GET",
    headers,
    body: request.data,
  });
  return reply(answer.status, answer.text, answer.headers, answer.headers["content-type"]?.includes("json") ?? false);
}

/** Freshworks' request method: the named template of config/requests.json, its placeholders filled here. */
async function freshworksProxy(
  route: Route,
  files: Map<string, Buffer>,
  options: HelpdeskAppOptions,
  opened: OpenedHelpdeskApp,
): Promise<void> {
  const templates = JSON.parse(files.get("config/requests.json")!.toString("utf8")) as Record<
    string,
    {
      schema: {
        method: string;
        host: string;
        path?: string;
        headers?: Record<string, string>;
        query?: Record<string, string>;
      };
    }
  >;
  const declared = (
    JSON.parse(files.get("manifest.json")!.toString("utf8")) as {
      product: { freshdesk: { requests: Record<string, unknown> } };
    }
  ).product.freshdesk.requests;
  const { name, options: invoke } = JSON.parse(route.request().postData() ?? "{}") as {
    name: string;
    options: { context?: Record<string, string>; body?: string };
  };
  const reply = (status: number, response: string, headers: Record<string, string> = {}) =>
    route.fulfill({ status: 200, headers: CORS, json: { status, headers, response, attempts: 1, errorSource: "APP" } });
  const template = templates[name];
  if (!template || !(name in declared)) return reply(400, `Request template ${name} is not declared`);

  const iparams: Record<string, string> = {
    gatehouse_host: new URL(TEST_GATEHOUSE_URL).host,
    gatehouse_token: options.token,
    freshdesk_domain: FRESHDESK_DOMAIN,
    freshdesk_api_key: FRESHDESK_API_KEY,
  };
  const fill = (text: string) =>
    text.replace(/<%=\s*(encode\()?\s*(iparam|context)\.(\w+)\s*\)?\s*%>/g, (_, encode, source, key) => {
      const value = source === "iparam" ? iparams[key] : invoke.context?.[key];
      if (value === undefined) throw new Error(`${name}: nothing to put for ${source}.${key}`);
      return encode ? Buffer.from(value).toString("base64") : value;
    });
  const { schema } = template;
  const host = fill(schema.host);
  const query = new URLSearchParams(Object.entries(schema.query ?? {}).map(([key, value]) => [key, fill(value)]));
  const pathAndQuery = fill(schema.path ?? "/") + (query.size > 0 ? `?${query}` : "");
  const headers = Object.fromEntries(Object.entries(schema.headers ?? {}).map(([key, value]) => [key, fill(value)]));

  if (host === FRESHDESK_DOMAIN) {
    // Freshdesk's own API: the ticket's replies (every message after the first).
    const expected = `Basic ${Buffer.from(FRESHDESK_API_KEY).toString("base64")}`;
    if (headers.Authorization !== expected) return reply(401, '{"code":"invalid_credentials"}');
    if (!pathAndQuery.startsWith(`/api/v2/tickets/${options.ticket.id}/conversations`)) return reply(404, "[]");
    const replies = options.ticket.messages
      .slice(1)
      .map((body, index) => ({ id: index + 1, body, body_text: htmlToText(body) }));
    return reply(200, JSON.stringify(replies), { "content-type": "application/json" });
  }
  if (host !== iparams.gatehouse_host) return reply(502, "", {});
  const answer = await sendToGatehouse(options, opened, pathAndQuery, {
    method: schema.method,
    headers,
    body: invoke.body,
  });
  return reply(answer.status, answer.text, answer.headers);
}

/**
 * Routes `page` so that the vendor's app loads from its made-up origin with the SDK stand-in and the vendor's server
 * side answered here, then opens it. Call before anything else on the page; the app starts its check at once.
 */
export async function openHelpdeskApp(
  page: Page,
  vendor: HelpdeskVendor,
  options: HelpdeskAppOptions,
): Promise<OpenedHelpdeskApp> {
  const files = helpdeskAppFiles(vendor, TEST_GATEHOUSE_URL);
  const origin = APP_ORIGIN[vendor];
  const opened: OpenedHelpdeskApp = { url: `${origin}/${APP_LAYOUT[vendor].page}`, lookups: [] };
  const settings = vendor === "zendesk" ? { gatehouse_url: TEST_GATEHOUSE_URL } : undefined;
  const data = vendor === "zendesk" ? zendeskData(options.ticket) : freshdeskData(options.ticket);
  await page.addInitScript((fixture) => Object.assign(window, { __helpdeskFixture: fixture }), { settings, data });

  await page.route(`${origin}/**`, async (route) => {
    const pathname = new URL(route.request().url()).pathname;
    if (pathname === FRESHWORKS_CLIENT_PATH) {
      return route.fulfill({ body: standIn("fresh-client.js"), contentType: contentType(".js") });
    }
    const file = files.get(pathname.slice(1));
    if (!file) return route.fulfill({ status: 404, headers: TEXT, body: "not in the app" });
    // Freshworks serves the page with {{{appclient}}} replaced by its client's address.
    const body = pathname.endsWith(".html")
      ? file.toString("utf8").replace("{{{appclient}}}", FRESHWORKS_CLIENT_PATH)
      : file;
    return route.fulfill({ body, contentType: contentType(pathname) });
  });
  await page.route(ZAF_SDK_URL, (route) =>
    route.fulfill({ body: standIn("zaf-sdk.js"), contentType: contentType(".js") }),
  );
  await page.route("https://zendesk-proxy.test/request", (route) => zendeskProxy(route, files, options, opened));
  await page.route("https://freshworks-proxy.test/invoke", (route) => freshworksProxy(route, files, options, opened));
  await page.goto(opened.url);
  return opened;
}
