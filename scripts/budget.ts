// The pages' budgets, measured and printed (npm run budget; needs a build: npx tsx tests/support/build.ts):
//
// 1. First-load JavaScript of /reports, gzipped: the portal and the sandbox are started, an admin signs in, and
//    the HTML of /reports is read for every script it makes the browser load (<script src> and
//    <link rel="preload" as="script"> under /_next/static; not the `nomodule` polyfills, which current browsers
//    skip). Each file is fetched and gzipped (zlib level 6, what
//    servers and CDNs commonly send); the sum is the figure. The RSC data inlined in the HTML is printed apart:
//    it is page data, not code. Budget: 220 KB.
// 2. Server render of /reports with 100 rows, beyond the upstream's own time: per run, the full answer time of
//    GET /reports?per_page=100 (first byte to last) minus the time of the two upstream calls the page makes (the
//    reports list with per_page=100 and the project names, in parallel as the page does), each timed directly
//    against the sandbox from this process in the same run. The cache is off, so every render calls the
//    upstream. Medians of RUNS runs after WARMUP runs. Budget: 60 ms.
import { gzipSync } from "node:zlib";

import { SANDBOX_KEYS } from "@/lib/sandbox";
import { freePort } from "@/tests/support/processes";

import { startPortal, waitUntilReady, type RunningPortal } from "@/tests/support/e2e/portal";
import { ADMIN } from "@/tests/support/e2e/settings";

const WARMUP = 5;
const RUNS = 25;
const BUDGET_JS_KB = 220;
const BUDGET_RENDER_MS = 60;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const kb = (bytes: number) => bytes / 1024;

async function signIn(portal: RunningPortal): Promise<string> {
  const response = await fetch(`${portal.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF": "1" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  if (!cookie) throw new Error("sign-in answered without a session cookie");
  return cookie;
}

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; status: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  return { ms: performance.now() - started, status: response.status, body };
}

async function firstLoadJs(portal: RunningPortal, cookie: string) {
  const page = await timed(`${portal.url}/reports`, { headers: { cookie } });
  if (page.status !== 200) throw new Error(`/reports answered ${page.status}`);
  const sources = new Set<string>();
  for (const match of page.body.matchAll(/<script([^>]*)\ssrc="([^"]+)"[^>]*>/g)) {
    // Legacy polyfills carry `nomodule`: browsers that run modules (every browser Next supports) skip them.
    if (match[2] && !/\snomodule/i.test(match[0])) sources.add(match[2]);
  }
  for (const match of page.body.matchAll(
    /<link[^>]*rel="preload"[^>]*as="script"[^>]*href="([^"]+)"|<link[^>]*href="([^"]+)"[^>]*as="script"/g,
  )) {
    const href = match[1] ?? match[2];
    if (href) sources.add(href);
  }
  const files = [...sources]
    .filter((src) => src.startsWith("/_next/static/"))
    .map((src) => src.replaceAll("&amp;", "&"));
  let raw = 0;
  let gzipped = 0;
  for (const file of files) {
    const body = Buffer.from(await (await fetch(`${portal.url}${file}`)).arrayBuffer());
    raw += body.length;
    gzipped += gzipSync(body, { level: 6 }).length;
  }
  const inline = [...page.body.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1] ?? "")
    .join("");
  return { files: files.length, raw, gzipped, inlineGzipped: gzipSync(Buffer.from(inline), { level: 6 }).length };
}

async function renderBeyondUpstream(portal: RunningPortal, cookie: string) {
  const upstream = portal.sandbox.reportsBaseUrl;
  const auth = { Authorization: `Bearer ${SANDBOX_KEYS.reports}`, Accept: "application/json" };
  const pageMs: number[] = [];
  const upstreamMs: number[] = [];
  const beyond: number[] = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const page = await timed(`${portal.url}/reports?per_page=100`, { headers: { cookie } });
    if (page.status !== 200 || !page.body.includes("Showing 1–100 of"))
      throw new Error(`/reports?per_page=100 did not render 100 rows (${page.status})`);
    const started = performance.now();
    await Promise.all([
      timed(`${upstream}/api/v1/reports?per_page=100`, { headers: auth }),
      timed(`${upstream}/api/v1/projects?sort_by=project&sort=asc&per_page=100`, { headers: auth }),
    ]);
    const upstreamTime = performance.now() - started;
    if (run < WARMUP) continue;
    pageMs.push(page.ms);
    upstreamMs.push(upstreamTime);
    beyond.push(page.ms - upstreamTime);
  }
  return { page: median(pageMs), upstream: median(upstreamMs), beyond: median(beyond) };
}

async function main(): Promise<void> {
  const portal = await startPortal({ port: await freePort(), sandboxPort: 0 });
  try {
    await waitUntilReady(portal);
    const cookie = await signIn(portal);
    const js = await firstLoadJs(portal, cookie);
    const render = await renderBeyondUpstream(portal, cookie);
    const jsOk = kb(js.gzipped) <= BUDGET_JS_KB;
    const renderOk = render.beyond <= BUDGET_RENDER_MS;
    console.log(
      [
        `First-load JS of /reports: ${kb(js.gzipped).toFixed(1)} KB gzipped (${kb(js.raw).toFixed(1)} KB raw, ${js.files} files) — budget ${BUDGET_JS_KB} KB: ${jsOk ? "OK" : "OVER"}`,
        `  plus ${kb(js.inlineGzipped).toFixed(1)} KB gzipped of inline RSC data (the page's rows, not code)`,
        `Server render of /reports?per_page=100: ${render.page.toFixed(1)} ms in all, upstream ${render.upstream.toFixed(1)} ms, ` +
          `beyond the upstream ${render.beyond.toFixed(1)} ms (medians of ${RUNS} runs) — budget ${BUDGET_RENDER_MS} ms: ${renderOk ? "OK" : "OVER"}`,
      ].join("\n"),
    );
    process.exitCode = jsOk && renderOk ? 0 : 1;
  } finally {
    await portal.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
