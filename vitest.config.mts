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
    hookTimeout: 60_000,
    // Vitest's default is one worker per core but one (1 on a 2-core machine), and most files wait on processes
    // they start (next start, PostgreSQL, Redis): three files at a time overlap those waits.
    maxWorkers: 3,
    // One PostgreSQL cluster for the run, which every file that needs one shares (a database of its own each).
    globalSetup: ["tests/support/postgres-global-setup.ts"],
  },
});
