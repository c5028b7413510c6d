// Makes the app icons Next.js serves from app/ out of app/icon.svg (the one drawn by hand): app/favicon.ico
// (16, 32 and 48 px PNGs in one .ico, for browsers and tools that ask for /favicon.ico) and app/apple-icon.png
// (180 px, for iOS home screens). Rendered by Debian's Chromium through Playwright (CHROMIUM_PATH, default
// /usr/bin/chromium). Run after changing the SVG: `npx tsx scripts/icons.ts`, and commit the three files.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { chromium } from "@playwright/test";

const ROOT = path.resolve(__dirname, "..");

/** An .ico file holding PNG images (supported by every browser since Vista-era formats). */
function ico(images: Array<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  const entries: Buffer[] = [];
  let offset = 6 + 16 * images.length;
  for (const { size, png } of images) {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width (0 means 256)
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    entries.push(entry);
  }
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

async function main(): Promise<void> {
  const svg = readFileSync(path.join(ROOT, "app", "icon.svg"), "utf8");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox"],
  });
  try {
    const render = async (size: number, source = svg): Promise<Buffer> => {
      const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
      const sized = source.replace("<svg ", `<svg width="${size}" height="${size}" `);
      await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
      const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
      await page.close();
      return png;
    };
    const favicon = ico(await Promise.all([16, 32, 48].map(async (size) => ({ size, png: await render(size) }))));
    writeFileSync(path.join(ROOT, "app", "favicon.ico"), favicon);
    // iOS rounds the corners itself and fills transparent ones with black: the square, full bleed.
    writeFileSync(path.join(ROOT, "app", "apple-icon.png"), await render(180, svg.replace(/ rx="\d+"/, "")));
    console.log(`icons: app/favicon.ico (${favicon.length} bytes), app/apple-icon.png`);
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
