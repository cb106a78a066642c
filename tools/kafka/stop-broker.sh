#!/usr/bin/env bash
# Stop the test broker started by start-broker.sh (same KAFKA_PORT / KAFKA_HOME_DIR).
# SIGTERM, wait up to KAFKA_STOP_TIMEOUT (default 20) seconds, then SIGKILL.
# Harmless when no broker runs. Keeps lib/ (jar cache) and broker.log.
set -euo pipefail

KAFKA_PORT="${KAFKA_PORT:-19092}"
KAFKA_HOME_DIR="${KAFKA_HOME_DIR:-${TMPDIR:-/tmp}/exchange-kafka-$KAFKA_PORT}"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-20}"
PIDFILE="$KAFKA_HOME_DIR/broker.pid"

log() { echo "[kafka] $*" >&2; }

alive() {
  # running (not a zombie) and still our kafka.Kafka (the pid may have been reused)
  local pid=$1 state
  [[ -r "/proc/$pid/stat" ]] || return 1
  state="$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$pid/stat" 2>/dev/null)" || return 1
  [[ "$state" != Z && "$state" != X ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "kafka.Kafka $KAFKA_HOME_DIR/server.properties"
}

if [[ ! -f "$PIDFILE" ]]; then
  log "no pid file ($PIDFILE): nothing to stop"
  exit 0
fi
PID="$(tr -dc '0-9' <"$PIDFILE")"
if [[ -z "$PID" ]] || ! alive "$PID"; then
  log "broker ${PID:+pid $PID }is not running"
  rm -f "$PIDFILE"
  exit 0
fi

log "stopping broker pid $PID (SIGTERM)"
kill -TERM "$PID" 2>/dev/null || true
deadline=$(( $(date +%s) + KAFKA_STOP_TIMEOUT ))
while alive "$PID"; do
  if (( $(date +%s) >= deadline )); then
    log "still alive after ${KAFKA_STOP_TIMEOUT}s: SIGKILL"
    kill -KILL "$PID" 2>/dev/null || true
    for _ in $(seq 50); do alive "$PID" || break; sleep 0.1; done
    break
  fi
  sleep 0.2
done
if alive "$PID"; then
  log "ERROR: broker pid $PID survived SIGKILL"
  exit 1
fi
rm -f "$PIDFILE"
log "broker stopped"
