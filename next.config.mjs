// The OTLP/HTTP trace exporters lib/telemetry/start.ts picks from (protobuf or JSON).
const OTLP_EXPORTERS = ["@opentelemetry/exporter-trace-otlp-http", "@opentelemetry/exporter-trace-otlp-proto"];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // No "X-Powered-By: Next.js": nothing to gain from advertising the stack.
  poweredByHeader: false,
  // The build is a standalone folder (.next/standalone: the server with only the node_modules files it loads), which
  // the container runs as it is and lib/cli/next-server.mjs serves for npm start, the demo and the tests.
  output: "standalone",
  // Loaded by the password-strength worker by name at run time (lib/contract/password-estimator.ts), so the build's
  // trace cannot see them: zxcvbn-ts and its one dependency (tests/http/server/container.test.ts runs a copy of the
  // standalone folder away from the project's node_modules, where a missing one would be found instead).
  outputFileTracingIncludes: { "/**": ["./node_modules/@zxcvbn-ts/**", "./node_modules/fastest-levenshtein/**"] },
  reactStrictMode: true,
  // NEXT_DIST_DIR lets several builds live side by side (parallel test runs, a demo next to a test build).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // `npm test` type-checks the whole repository (tests included) with `tsc --noEmit` before it builds;
  // checking again inside `next build` would only double the time.
  typescript: { ignoreBuildErrors: true },
  // forbidden() in pages (lib/auth/current-user.ts requirePageUser) renders app/forbidden.tsx with a 403.
  experimental: { authInterrupts: true },
  // (The password-strength dictionaries are loaded by a worker thread from node_modules: lib/contract/password-estimator.ts.)
  // openid-client checks its Configuration with instanceof: one copy, loaded by Node, is shared by every bundle
  // (route handlers and pages), so a configuration discovered in one is accepted by the other. OpenTelemetry's API
  // and SDK are loaded by Node too: one copy of the API for Next's own spans and ours, and the SDK (imported only when
  // traces are on, lib/telemetry/start.ts) left out of every bundle.
  serverExternalPackages: ["openid-client", "@opentelemetry/api", "@opentelemetry/sdk-node", ...OTLP_EXPORTERS],
  // The licence API's public keys at their well-known address (lib/contract/licences.ts LICENCE_KEYS_PATH): Next
  // routes no folder whose name starts with a dot.
  async rewrites() {
    return [{ source: "/.well-known/gatehouse-licence-keys.json", destination: "/api/licences/keys" }];
  },
};

export default nextConfig;
