// A canary sandbox for the tests of a vitest file or describe block that call the upstream clients directly (kept
// apart from ./sandbox.ts, which the browser tests' server imports outside vitest).
import { afterAll, beforeAll, beforeEach } from "vitest";

import type { SandboxOptions } from "@/lib/sandbox";

import { late } from "./late";
import { startCanarySandbox, type TestSandbox } from "./sandbox";

/**
 * A sandbox that accepts the canary keys, started before the enclosing file's (or describe's) tests, reset before
 * each test (its seeded data again, no fault, an empty request log) and closed after them.
 */
export function setUpCanarySandbox(options: Partial<SandboxOptions> = {}): TestSandbox {
  let sandbox: TestSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startCanarySandbox(options);
  });
  afterAll(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  beforeEach(async () => {
    await sandbox?.reset();
  });
  return late(() => sandbox, "setUpCanarySandbox: the sandbox");
}
