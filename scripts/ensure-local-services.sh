#!/usr/bin/env bash
# CI's machine runs PostgreSQL (127.0.0.1:5432, database test) and Redis (127.0.0.1:6379) as
# services. If one is down, start it the way the machine's image does; fail loudly otherwise.
# The distributed end-to-end suite (test/distributed) also needs an nginx binary: Debian's
# package, installed once; the suite runs it as an unprivileged child with its own prefix. The
# browser tier (*.browser.spec.ts) drives Debian's chromium through playwright-core: installed here
# too, so a fresh CI machine has it.
set -euo pipefail

port_open() { (exec 9<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {
  for _ in $(seq 1 50); do port_open "$1" && return 0; sleep 0.2; done
  return 1
}

if ! port_open 5432; then
  echo "PostgreSQL is not answering on 5432; starting it"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start || true
  wait_port 5432 || { echo "PostgreSQL did not start" >&2; exit 1; }
fi
if ! port_open 6379; then
  echo "Redis is not answering on 6379; starting it"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  wait_port 6379 || { echo "Redis did not start" >&2; exit 1; }
fi
echo "PostgreSQL and Redis answer"

sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_updated=""
apt_update_once() { [ -n "$apt_updated" ] || { sudo_if_needed apt-get update -qq; apt_updated=1; }; }

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "nginx is not installed; installing Debian's nginx-light (the edge proxy of test/distributed)"
  apt_update_once
  DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends nginx-light
  # The package starts a system nginx on port 80; the suite runs its own, so stop that one.
  (command -v service >/dev/null && sudo_if_needed service nginx stop) >/dev/null 2>&1 || true
fi
echo "nginx: $( (nginx -v || /usr/sbin/nginx -v) 2>&1)"

if [ ! -x /usr/bin/chromium ]; then
  echo "chromium is not installed; installing Debian's chromium (the browser tests of apps/web)"
  apt_update_once
  DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends chromium
fi
echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo missing)"
