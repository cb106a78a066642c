# One image for all six services; docker-compose.yml and deploy/ choose the app by command.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund
COPY tsconfig.base.json tsconfig.runtime.json ./
COPY config ./config
COPY scripts ./scripts
COPY apps ./apps
COPY libs ./libs
COPY tools/web ./tools/web
# The web pages (dist/web): the embedded default serves them, the edge copies them (deploy/).
RUN npm run build:web
USER node
EXPOSE 8080
# Overridden per service, e.g. ["node", "scripts/run.js", "apps/ledger/src/main.ts"].
CMD ["node", "scripts/run.js", "apps/exchange/src/main.ts"]
