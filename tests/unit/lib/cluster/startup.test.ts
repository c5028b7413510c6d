// The start-up's warning about instances that would not act as one portal: a second live process on one SQLite file.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";

import { afterEach, describe, expect, it } from "vitest";

import { claimSqliteFile } from "@/lib/cluster/startup";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function storeFile(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "gatehouse-marker-"));
  folders.push(folder);
  return path.join(folder, "gatehouse.db");
}

describe("claimSqliteFile", () => {
  it("names this process in <store>.instance and says nothing when the file is free", () => {
    const file = storeFile();
    expect(claimSqliteFile(file, process.pid, "web-1")).toBeNull();
    expect(readFileSync(`${file}.instance`, "utf8")).toBe(`${process.pid} web-1\n`);
    // A restart of the same process (or a marker left by a dead one) is not a second instance.
    expect(claimSqliteFile(file, process.pid, "web-1")).toBeNull();
    writeFileSync(`${file}.instance`, "999999999 gone\n");
    expect(claimSqliteFile(file, process.pid, "web-1")).toBeNull();
  });

  it("warns when another live process uses the same file", async () => {
    const file = storeFile();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    try {
      writeFileSync(`${file}.instance`, `${other.pid} web-1\n`);
      const warning = claimSqliteFile(file, process.pid, "web-2");
      expect(warning).toContain(
        `Another Gatehouse process (web-1, pid ${other.pid}) uses the same SQLite store ${file}`,
      );
      expect(warning).toContain("REDIS_URL");
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("creates the store's missing folder, owner-only, before it writes the marker (a fresh clone has no ./data)", () => {
    const file = path.join(path.dirname(storeFile()), "data", "gatehouse.db");
    expect(claimSqliteFile(file, process.pid, "web-1")).toBeNull();
    expect(readFileSync(`${file}.instance`, "utf8")).toBe(`${process.pid} web-1\n`);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });
});
