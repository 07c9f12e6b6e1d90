# Drawdown billing service: a multi-stage build on Node 20, running as a non-root user.
# docs/deployment.md explains deploying, upgrading and backing up; the commands below are the
# ones test/deployment.test.ts runs (it reads this file and checks each).

# Build: install every workspace's dependencies (better-sqlite3 compiles here), then compile.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.build.json ./
COPY packages ./packages
COPY apps ./apps
RUN npm ci
RUN npx tsc -b tsconfig.build.json
# Keep only what runs: production dependencies of the billing service and its packages.
RUN npm prune --omit=dev

# Run: the compiled service, its dependencies, nothing else.
FROM node:20-bookworm-slim AS run
ENV NODE_ENV=production \
    DRAWDOWN_HOST=0.0.0.0 \
    DRAWDOWN_OPS_ADDRESS=0.0.0.0:8088 \
    DRAWDOWN_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/apps/billing-service ./apps/billing-service
# The price search API and the standalone billing portal (compose's `price-search` and `portal`
# services run them from this image).
COPY --from=build /app/apps/price-search ./apps/price-search
COPY --from=build /app/apps/billing-portal ./apps/billing-portal
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080 8081 8088
# Readiness on the operations address: the database answers, the schema is current, workers run.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "apps/billing-service/bin/healthcheck.js", "http://127.0.0.1:8088/readyz"]
# SIGTERM (docker stop) drains in-flight requests within DRAWDOWN_SHUTDOWN_TIMEOUT_MS (25 s):
# give the container more than that, e.g. `docker stop -t 30` or compose's stop_grace_period.
ENTRYPOINT ["node", "apps/billing-service/bin/drawdown.js"]
CMD ["serve"]
