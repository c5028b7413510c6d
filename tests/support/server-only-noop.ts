// Stand-in for the `server-only` package under vitest, which runs server modules in plain Node.
export {};
