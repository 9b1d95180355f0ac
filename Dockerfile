# The loadlab image: the CLI and its runtime dependencies, run as a non-root user (uid 1000).
#   docker build -t loadlab .
#   docker run --rm loadlab run scenarios/steady-mix.yaml --out /tmp/r
# `loadlab k8s run|plan` writes manifests that run this image (docs/kubernetes.md).
ARG NODE_VERSION=20.20.2

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Dependencies only: `prepare` (the TypeScript build) runs below, once the sources are here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bench ./bench
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY scenarios ./scenarios
# `loadlab run` writes reports/<scenario-name>/ by default: the one directory the user may write.
RUN mkdir reports && chown 1000:1000 reports
# The node image's `node` user, by number so that Kubernetes' runAsNonRoot can check it.
USER 1000:1000
ENTRYPOINT ["node", "bin/loadlab.js"]
CMD ["--help"]
