#!/usr/bin/env bash
# Stop the broker started by kafka-up.sh, by its recorded pid only (never pkill): SIGTERM runs Kafka's
# shutdown hook (clean KafkaRaftServer.shutdown()); after 30 s it gets SIGKILL (the next start recovers the
# log, as after a crash). The data stays (kafka-reset.sh deletes it). Idempotent: no pid file, or a dead
# pid, is success.
set -uo pipefail

HERE="$(cd -P "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
REPO="$(cd -P "$HERE/../../.." && pwd)"
BASE="${KAFKA_BASE_DIR:-$REPO/.kafka}"
RUN="$BASE/run"
PIDFILE="$RUN/kafka.pid"
STOP_TIMEOUT_S="${KAFKA_STOP_TIMEOUT_S:-30}"

[[ -f "$PIDFILE" ]] || exit 0
PID="$(cat "$PIDFILE")"

# Only signal the process if it still is our broker: after a reboot the recorded pid may belong to anything.
cmd=""
if [[ "$PID" =~ ^[0-9]+$ ]] && kill -0 "$PID" 2>/dev/null; then
  cmd="$(tr '\0' ' ' <"/proc/$PID/cmdline" 2>/dev/null)"
fi
if [[ "$cmd" == *kafka.Kafka*"$RUN/server.properties"* ]]; then
  kill -TERM "$PID" 2>/dev/null
  for _ in $(seq 1 $((STOP_TIMEOUT_S * 4))); do
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.25
  done
  if kill -0 "$PID" 2>/dev/null; then
    echo "kafka-down: broker (pid $PID) did not stop in ${STOP_TIMEOUT_S}s, sending SIGKILL" >&2
    kill -KILL "$PID" 2>/dev/null
    for _ in $(seq 1 20); do
      kill -0 "$PID" 2>/dev/null || break
      sleep 0.25
    done
  fi
  echo "kafka stopped (pid $PID)"
elif [[ -n "$cmd" ]]; then
  echo "kafka-down: pid $PID in $PIDFILE is not our broker any more; not signalling it" >&2
fi
rm -f "$PIDFILE"
