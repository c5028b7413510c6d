#!/usr/bin/env node
// Run after `npm install` changes the lockfile: `node .ci/complete-lockfile.mjs`.
// The registry reachable here does not serve other platforms' optional binaries (@next/swc-darwin-*, …), so
// npm leaves them out of package-lock.json, and `npm ci` (on any machine) then calls the lockfile out of sync.
// This adds an entry for each one — name, version from its parent's optionalDependencies, os/cpu/libc from its
// name — which is all `npm ci` needs: on a machine of another platform it skips them, as it should.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const lockPath = path.join(root, "package-lock.json");

function missingFromLock() {
  let out = "";
  try {
    execFileSync("npm", ["ci", "--dry-run", "--no-audit", "--no-fund"], { cwd: root, encoding: "utf8", stdio: "pipe" });
    return [];
  } catch (error) {
    out = `${error.stdout ?? ""}${error.stderr ?? ""}`;
  }
  return [...out.matchAll(/Missing: (\S+?)@\S* from lock file/g)].map((m) => m[1]);
}

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const oses = ["darwin", "win32", "linux", "android", "freebsd", "openharmony", "sunos", "netbsd", "openbsd", "aix"];
  const at = parts.findIndex((p) => oses.includes(p));
  if (at < 0 || !parts[at + 1]) throw new Error(`cannot tell the platform of ${name}`);
  const entry = { os: [parts[at]], cpu: [parts[at + 1]] };
  const abi = parts.slice(at + 2).join("-");
  if (/gnu/.test(abi)) entry.libc = ["glibc"];
  if (/musl/.test(abi)) entry.libc = ["musl"];
  return entry;
}

const missing = missingFromLock();
if (missing.length === 0) {
  console.log("package-lock.json is complete: npm ci accepts it");
  process.exit(0);
}
const lock = JSON.parse(fs.readFileSync(lockPath, "utf8"));
const packages = lock.packages;
for (const name of missing) {
  const parent = Object.values(packages).find((entry) => entry.optionalDependencies?.[name]);
  if (!parent) throw new Error(`${name} is missing from the lockfile but is nobody's optional dependency`);
  const version = parent.optionalDependencies[name].replace(/^[\^~=]/, "");
  packages[`node_modules/${name}`] = { version, ...platformOf(name), optional: true };
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${missing.length} other-platform optional binaries to package-lock.json: ${missing.join(", ")}`);
