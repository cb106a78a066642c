#!/usr/bin/env bash
# The one test command (README: "npm test"; .ci/run calls it too): types, lint, format, then every jest
# tier. Suites that need PostgreSQL, Redis or Kafka read DATABASE_URL / REDIS_URL / KAFKA_BROKERS
# (set by .ci/run) and say in one line that they skipped when an address is unset.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== typecheck"
npx tsc -p tsconfig.json
npx tsc -p apps/web/tsconfig.json
echo "== lint"
npm run --silent lint
echo "== format (Prettier: npm run format fixes it)"
npm run --silent format:check
echo "== jest"
npx jest --selectProjects unit integration e2e --maxWorkers=2 "$@"
echo "== browser (the pages in Debian's chromium against npm start, one file at a time)"
npx jest --selectProjects browser --runInBand "$@"
echo "== distributed (six apps behind nginx, one file at a time)"
npx jest --selectProjects distributed --runInBand --passWithNoTests "$@"
