# Gatehouse in a container: the standalone output of `npm run build` (next.config.mjs), run as a non-root user,
# with the embedded store on a volume at /data. Build: `docker build -t gatehouse .`; several instances with
# PostgreSQL, Redis and nginx: compose.yaml. docs/operations.md says what was proven where.
# NODE_IMAGE: any Debian-based Node.js 20 or later image (a mirror's, if Docker Hub is out of reach).
ARG NODE_IMAGE=node:20-bookworm-slim

# Dependencies, with a toolchain: better-sqlite3 builds from source when no prebuilt binary can be fetched.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm run build

# What runs: the standalone folder alone (the server and the node_modules files it loads), nothing built with.
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
RUN groupadd --system gatehouse \
  && useradd --system --gid gatehouse --no-create-home --home-dir /nonexistent gatehouse \
  && mkdir /data && chown gatehouse:gatehouse /data
COPY --from=build /app/.next/standalone ./
# It guards the log streams and gives the HTTP server its slow-client limits (lib/cli/server-preload.mjs); the
# limits are lib/config/http-server.ts's defaults, which `npm start` hands over the same way (a test compares them).
COPY --from=build /app/lib/cli/server-preload.mjs ./server-preload.mjs
ENV NODE_ENV=production \
  NEXT_TELEMETRY_DISABLED=1 \
  HOSTNAME=0.0.0.0 \
  PORT=3000 \
  DATABASE_URL=/data/gatehouse.db \
  HTTP_HEADERS_TIMEOUT_MS=10000 \
  HTTP_REQUEST_TIMEOUT_MS=30000 \
  HTTP_KEEP_ALIVE_TIMEOUT_MS=5000
USER gatehouse
VOLUME ["/data"]
EXPOSE 3000
# Liveness: the process answers (GET /api/health reads no store and no upstream). A balancer asks /api/ready.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM reaches the server itself (no shell in front): it drains and exits 0 (docs/operations.md, Shutdown).
STOPSIGNAL SIGTERM
CMD ["node", "--import", "./server-preload.mjs", "server.js"]
