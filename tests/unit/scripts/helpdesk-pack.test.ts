// `npm run helpdesk:pack`: both zips written by the command as an admin runs it, read back with yauzl, hold each
// app's files at their root, the shared card beside each app's script, manifests that parse and a token kept in
// a secure setting — and the Gatehouse address written where each vendor reads it.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";

import { gatehouseUrlProblem } from "@/scripts/helpdesk-apps";

const run = promisify(execFile);
const TSX = path.join("node_modules", ".bin", "tsx");
const GATEHOUSE = "https://gatehouse.acme.test";

/** Every entry of a zip file: its name and its bytes. */
async function readZip(file: string): Promise<Map<string, Buffer>> {
  const zip = await promisify<string, yauzl.Options, yauzl.ZipFile>(yauzl.open)(file, { lazyEntries: true });
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("error", reject);
    zip.on("end", resolve);
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return entries;
}

const jsonOf = (entries: Map<string, Buffer>, name: string) => JSON.parse(entries.get(name)!.toString("utf8"));

describe("npm run helpdesk:pack", () => {
  let out: string;
  let zendesk: Map<string, Buffer>;
  let freshdesk: Map<string, Buffer>;

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), "gatehouse-helpdesk-pack-"));
    const { stdout } = await run(TSX, ["scripts/helpdesk-pack.ts", "--gatehouse-url", GATEHOUSE, "--out", out]);
    expect(stdout).toContain("gatehouse-zendesk.zip");
    expect(stdout).toContain("gatehouse-freshdesk.zip");
    zendesk = await readZip(path.join(out, "gatehouse-zendesk.zip"));
    freshdesk = await readZip(path.join(out, "gatehouse-freshdesk.zip"));
  }, 60_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("lays out the Zendesk app as Zendesk's uploader takes it: manifest.json at the root, assets/, translations/", () => {
    expect([...zendesk.keys()].sort()).toEqual([
      "assets/app.js",
      "assets/iframe.html",
      "assets/verdicts.css",
      "assets/verdicts.js",
      "manifest.json",
      "translations/en.json",
    ]);
    expect(zendesk.get("assets/verdicts.js")).toEqual(readFileSync("helpdesk/shared/verdicts.js"));
    expect(zendesk.get("assets/verdicts.css")).toEqual(readFileSync("helpdesk/shared/verdicts.css"));
  });

  it("keeps Zendesk's token in a secure setting sent only in a header, to the packed host alone", () => {
    const manifest = jsonOf(zendesk, "manifest.json");
    expect(manifest.domainWhitelist).toEqual(["gatehouse.acme.test"]);
    expect(manifest.parameters).toEqual([
      { name: "gatehouse_url", type: "url", required: true, default: GATEHOUSE },
      { name: "token", type: "text", required: true, secure: true, scopes: ["header"] },
    ]);
    const app = zendesk.get("assets/app.js")!.toString("utf8");
    expect(app).toContain('Authorization: "Bearer {{setting.token}}"');
    expect(app).toContain("secure: true");
  });

  it("lays out the Freshdesk app as Freshworks' uploader takes it: manifest.json, app/ and config/ at the root", () => {
    expect([...freshdesk.keys()].sort()).toEqual([
      "app/index.html",
      "app/scripts/app.js",
      "app/scripts/verdicts.js",
      "app/styles/images/icon.svg",
      "app/styles/verdicts.css",
      "config/iparams.json",
      "config/requests.json",
      "manifest.json",
    ]);
    expect(freshdesk.get("app/scripts/verdicts.js")).toEqual(readFileSync("helpdesk/shared/verdicts.js"));
  });

  it("keeps Freshdesk's token in a secure installation parameter that only the request template reads", () => {
    expect(jsonOf(freshdesk, "manifest.json")["platform-version"]).toBe("2.3");
    const iparams = jsonOf(freshdesk, "config/iparams.json");
    expect(iparams.gatehouse_token).toMatchObject({ secure: true, required: true });
    expect(iparams.gatehouse_host.default_value).toBe("gatehouse.acme.test");
    const lookup = jsonOf(freshdesk, "config/requests.json").helpdeskLookup.schema;
    expect(lookup).toMatchObject({
      protocol: "https",
      method: "POST",
      host: "<%= iparam.gatehouse_host %>",
      path: "/api/helpdesk/lookup",
      headers: { Authorization: "Bearer <%= iparam.gatehouse_token %>" },
    });
    expect(freshdesk.get("app/scripts/app.js")!.toString("utf8")).not.toContain("gatehouse_token");
  });

  it("makes the same bytes from the same files", async () => {
    const again = mkdtempSync(path.join(tmpdir(), "gatehouse-helpdesk-pack-"));
    try {
      await run(TSX, ["scripts/helpdesk-pack.ts", "--gatehouse-url", GATEHOUSE, "--out", again]);
      for (const name of ["gatehouse-zendesk.zip", "gatehouse-freshdesk.zip"]) {
        expect(readFileSync(path.join(again, name))).toEqual(readFileSync(path.join(out, name)));
      }
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  }, 30_000);

  it("refuses to pack without an https address, saying why", async () => {
    const refused = await run(TSX, ["scripts/helpdesk-pack.ts"]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toContain("--gatehouse-url https://gatehouse.example.com");
    expect(gatehouseUrlProblem("http://gatehouse.example.com")).toMatch(/must start with https:\/\//);
    expect(gatehouseUrlProblem("https://10.0.0.5")).toMatch(/not an IP address/);
    expect(gatehouseUrlProblem("https://gatehouse.example.com/portal")).toMatch(/without a path/);
    expect(gatehouseUrlProblem("https://gatehouse.example.com:8443")).toMatch(/port/);
    expect(gatehouseUrlProblem("gatehouse")).toMatch(/is not an address/);
    expect(gatehouseUrlProblem("https://gatehouse.example.com")).toBeNull();
  }, 30_000);
});
