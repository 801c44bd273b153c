# Build stage: compile TypeScript with the full dependency set.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Runtime: production dependencies and the compiled server only.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
# HTTPS only. The generated PKI and the admin kubeconfig live in /data/pki (share it between replicas).
EXPOSE 6443
# Beside etcd: pass --etcd-servers; without it the embedded store writes to /data.
VOLUME ["/data"]
ENTRYPOINT ["node", "dist/main.js", "--bind-address", "0.0.0.0", "--secure-port", "6443", "--data-dir", "/data", "--cert-dir", "/data/pki"]
