// What `npm test` does first on a machine: nothing when Chromium, PostgreSQL's programs, redis-server and nginx are there; installs
// what is missing with apt as root or with passwordless sudo; otherwise names what is missing and how to get it.
import { describe, expect, it } from "vitest";

import { planPrerequisites, type Probe } from "@/scripts/test-prerequisites";

function probe(overrides: Partial<Probe> & { files?: string[]; commands?: string[] } = {}): Probe {
  const files = new Set(overrides.files ?? []);
  const commands = new Set(overrides.commands ?? []);
  return {
    env: {},
    exists: (file) => files.has(file),
    list: (folder) =>
      [...files]
        .filter((file) => file.startsWith(`${folder}/`))
        .map((file) => file.slice(folder.length + 1).split("/")[0]!),
    onPath: (command) => commands.has(command),
    isRoot: false,
    canSudo: () => false,
    ...overrides,
  };
}

const SERVERS = ["/usr/bin/redis-server", "/usr/sbin/nginx"];
const DEBIAN = { files: ["/usr/bin/chromium", "/usr/lib/postgresql/15/bin/initdb", ...SERVERS], commands: ["apt-get"] };

describe("planPrerequisites", () => {
  it("is ready on a machine that has Debian's Chromium, PostgreSQL, redis-server and nginx", () => {
    expect(planPrerequisites(probe(DEBIAN))).toEqual({ kind: "ready" });
  });

  it("takes CHROMIUM_PATH, PG_BIN, initdb on PATH or TEST_POSTGRES_URL instead", () => {
    expect(
      planPrerequisites(
        probe({
          files: ["/opt/chrome", "/opt/pg/initdb", ...SERVERS],
          env: { CHROMIUM_PATH: "/opt/chrome", PG_BIN: "/opt/pg" },
        }),
      ),
    ).toEqual({ kind: "ready" });
    expect(planPrerequisites(probe({ files: ["/usr/bin/chromium", ...SERVERS], commands: ["initdb"] }))).toEqual({
      kind: "ready",
    });
    expect(
      planPrerequisites(
        probe({
          files: ["/usr/bin/chromium", "/usr/sbin/nginx"],
          env: { TEST_POSTGRES_URL: "postgres://db/x", TEST_REDIS_URL: "redis://r:6379" },
        }),
      ),
    ).toEqual({ kind: "ready" });
  });

  it("installs what is missing with apt as root", () => {
    expect(planPrerequisites(probe({ commands: ["apt-get"], isRoot: true }))).toMatchObject({
      kind: "install",
      command: [
        "apt-get",
        "install",
        "-y",
        "--no-install-recommends",
        "chromium",
        "postgresql",
        "redis-server",
        "nginx-light",
      ],
    });
    expect(
      planPrerequisites(probe({ files: ["/usr/bin/chromium", ...SERVERS], commands: ["apt-get"], isRoot: true })),
    ).toMatchObject({
      kind: "install",
      command: ["apt-get", "install", "-y", "--no-install-recommends", "postgresql"],
    });
  });

  it("or through sudo when it needs no password", () => {
    expect(
      planPrerequisites(
        probe({
          files: ["/usr/lib/postgresql/16/bin/initdb", ...SERVERS],
          commands: ["apt-get", "sudo"],
          canSudo: () => true,
        }),
      ),
    ).toMatchObject({
      kind: "install",
      command: ["sudo", "apt-get", "install", "-y", "--no-install-recommends", "chromium"],
    });
  });

  it("otherwise says what is missing and the command that installs it", () => {
    const plan = planPrerequisites(probe({ commands: ["apt-get", "sudo"] }));
    expect(plan).toEqual({
      kind: "cannot",
      needs: ["chromium", "postgresql", "redis-server", "nginx-light"].map((apt) => expect.objectContaining({ apt })),
      message: expect.stringContaining(
        "install them with: sudo apt-get update && sudo apt-get install -y chromium postgresql redis-server nginx-light",
      ),
    });
    const elsewhere = planPrerequisites(probe({ files: ["/usr/bin/chromium", ...SERVERS] }));
    expect(elsewhere).toMatchObject({
      kind: "cannot",
      message: expect.stringContaining("install postgresql with your system's package manager"),
    });
    expect(elsewhere).toMatchObject({ message: expect.stringContaining("TEST_POSTGRES_URL") });
  });
});
