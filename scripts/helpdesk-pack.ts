// `npm run helpdesk:pack -- --gatehouse-url https://gatehouse.example.com`: the helpdesk sidebar apps as the zip files
// their vendors' uploaders take (the app's root at the zip's root), for the Gatehouse at that address:
// artifacts/helpdesk/gatehouse-zendesk.zip and artifacts/helpdesk/gatehouse-freshdesk.zip (artifacts/ is ignored by
// git). What goes into each is ./helpdesk-apps.ts's; docs/helpdesk.md says how to upload and set them up.
//
// Zipped with yazl: a small, long-kept zip writer (the same author's yauzl reads zips in the test) whose entries get
// a fixed date here, so that packing the same files twice gives the same bytes.
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

import { ZipFile } from "yazl";

import { gatehouseUrlProblem, HELPDESK_VENDORS, helpdeskAppFiles, type HelpdeskVendor } from "./helpdesk-apps";

const ROOT = path.resolve(__dirname, "..");
export const HELPDESK_ARTIFACTS = path.join(ROOT, "artifacts", "helpdesk");
/** Every entry's date: a fixed one, so that the same files give the same zip. */
const ENTRY_DATE = new Date("2026-01-01T00:00:00Z");

export const zipName = (vendor: HelpdeskVendor) => `gatehouse-${vendor}.zip`;

/** Writes one app's zip into `outDir` and resolves with its path. */
export async function packHelpdeskApp(vendor: HelpdeskVendor, gatehouseUrl: string, outDir: string): Promise<string> {
  const files = helpdeskAppFiles(vendor, gatehouseUrl);
  mkdirSync(outDir, { recursive: true });
  const target = path.join(outDir, zipName(vendor));
  const zip = new ZipFile();
  for (const [name, content] of files) zip.addBuffer(content, name, { mtime: ENTRY_DATE, mode: 0o100644 });
  zip.end();
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(target);
    out.on("close", resolve);
    out.on("error", reject);
    zip.outputStream.on("error", reject);
    zip.outputStream.pipe(out);
  });
  return target;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { "gatehouse-url": { type: "string" }, out: { type: "string" } } });
  const gatehouseUrl = values["gatehouse-url"];
  if (!gatehouseUrl) {
    console.error(
      "Say where Gatehouse is: npm run helpdesk:pack -- --gatehouse-url https://gatehouse.example.com\n" +
        "(Zendesk sends the token only to the host written into the app's manifest when it is packed.)",
    );
    return 2;
  }
  const problem = gatehouseUrlProblem(gatehouseUrl);
  if (problem) {
    console.error(`--gatehouse-url ${problem}.`);
    return 2;
  }
  const outDir = values.out ? path.resolve(values.out) : HELPDESK_ARTIFACTS;
  for (const vendor of HELPDESK_VENDORS) {
    console.log(path.relative(process.cwd(), await packHelpdeskApp(vendor, gatehouseUrl, outDir)));
  }
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
