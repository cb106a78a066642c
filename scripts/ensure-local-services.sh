#!/usr/bin/env bash
# CI's machine runs PostgreSQL (127.0.0.1:5432, database test) and Redis (127.0.0.1:6379) as
# services. If one is down, start it the way the machine's image does; fail loudly otherwise.
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
