import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // `server-only` throws outside a React Server environment; tests run server code directly in Node.
      "server-only": fileURLToPath(new URL("./tests/support/server-only-noop.ts", import.meta.url)),
    },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 20_000,
    // expect.poll waits for what a server does after its answer (a history row, an event): it ends as soon as the
    // condition holds, and 1 s (the default) was too short for a busy store (trends' 100 rows on PostgreSQL).
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    // Vitest's default is one worker per core but one (1 on a 2-core machine), and most files wait on processes
    // they start (next start, PostgreSQL, Redis): three files at a time overlap those waits.
    maxWorkers: 3,
    // One PostgreSQL cluster for the run, which every file that needs one shares (a database of its own each).
    globalSetup: ["tests/support/postgres-global-setup.ts"],
  },
});
