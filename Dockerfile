# syntax=docker/dockerfile:1
# svc-apiserver: HTTPS only, as the unprivileged `node` user, data (and the generated PKI) under /data.
#   docker build --build-arg SVC_GIT_COMMIT=$(git rev-parse HEAD) -t svc-apiserver:0.1.0 .
#   docker run -p 127.0.0.1:6443:6443 -v svc-data:/data svc-apiserver:0.1.0          # embedded store
# deploy/compose.yaml runs three etcd members (TLS) and two replicas; deploy/kubernetes/ has the manifests.
# The admin kubeconfig is /data/admin.kubeconfig in the volume (docker cp CONTAINER:/data/admin.kubeconfig .).

# Build stage: compile TypeScript with the full dependency set, then drop the development dependencies.
FROM node:20-bookworm-slim AS build
# The commit /version reports (the build context has no .git): --build-arg SVC_GIT_COMMIT=$(git rev-parse HEAD).
ARG SVC_GIT_COMMIT=unknown
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci runs the package's prepare step (build when dist/ is stale), which has no sources yet to build here.
COPY scripts/build-if-stale.cjs scripts/build-info.cjs ./scripts/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime: production dependencies, the compiled server, the health check and the balancer (for compose).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# glibc's malloc raises its mmap threshold to the size of the largest mapped block freed so far; after the watch
# cache's first load, large short-lived buffers (etcd answers, socket reads) then come from the heap and leave holes
# that keep RSS up by a third or more. A fixed threshold keeps them as mappings, returned to the system when freed.
ENV MALLOC_MMAP_THRESHOLD_=131072
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY scripts/healthcheck.cjs ./scripts/healthcheck.cjs
COPY scripts/cluster/balancer.cjs ./scripts/cluster/balancer.cjs
COPY scripts/etcd-certs ./scripts/etcd-certs
# /data/pki and /data/etcd-pki exist in the image, owned by `node`, so fresh volumes mounted there are writable by it.
RUN mkdir -p /data/pki /data/etcd-pki && chown -R node:node /data && chmod 700 /data/pki /data/etcd-pki
USER node
# HTTPS only (no plain-HTTP port). The PKI and the admin kubeconfig are written to /data/pki on first start;
# replicas on one etcd prefix share ca.crt, ca.key, sa.key and sa.pub.
EXPOSE 6443
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "scripts/healthcheck.cjs", "https://127.0.0.1:6443/readyz"]
ENTRYPOINT ["node", "dist/main.js", "--bind-address", "0.0.0.0", "--secure-port", "6443", "--data-dir", "/data", "--cert-dir", "/data/pki"]
