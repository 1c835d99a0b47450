#!/usr/bin/env bash
# Start a single-node Apache Kafka (KRaft, broker+controller) on 127.0.0.1:9092, no Docker.
#
#   bash deploy/local/kafka/kafka-up.sh      # idempotent: exits 0 if our broker is already running;
#                                            # exits 3, naming the holder, if another process has the port
#   bash deploy/local/kafka/kafka-down.sh    # stops it (by recorded pid only)
#   bash deploy/local/kafka/kafka-reset.sh   # stops it and deletes its data (topics, offsets, events)
#
# Needs java 17+ and bash; mvn with Maven Central reachable on the first run of a version only.
# State lives in the git-ignored <repo>/.kafka/: lib-<version>/ (jars, downloaded once) and run/ (config,
# data, logs, kafka.pid). The data survives restarts (topics, consumer offsets, events not yet consumed);
# only kafka-reset.sh deletes it. Details and measurements: docs/kafka-local.md.
# Stdout stays terse (1-2 lines) because this runs inside `npm start` and CI; errors go to stderr.
set -euo pipefail

KAFKA_VERSION="${KAFKA_VERSION:-3.9.2}"
HOST=127.0.0.1
PORT="${KAFKA_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
# Any 22-char base64url UUID; a fixed one saves a JVM start for `StorageTool random-uuid`.
CLUSTER_ID="${KAFKA_CLUSTER_ID:-4L6g3nShT-eMCtK--X86sw}"
HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
READY_TIMEOUT_S="${KAFKA_READY_TIMEOUT_S:-90}"

# <repo> = three levels above this script (deploy/local/kafka/), symlinks resolved.
HERE="$(cd -P "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
REPO="$(cd -P "$HERE/../../.." && pwd)"
BASE="${KAFKA_BASE_DIR:-$REPO/.kafka}"
# KAFKA_LIB_DIR lets a second broker (the chaos suite's) reuse the jars of the first.
LIB="${KAFKA_LIB_DIR:-$BASE/lib-$KAFKA_VERSION}"
RUN="$BASE/run"
PIDFILE="$RUN/kafka.pid"
LOGS="$RUN/logs"

die() { echo "kafka-up: $*" >&2; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Is $1 a live process started by this script (java running kafka.Kafka with our config)? Guards pid reuse.
is_our_broker() {
  local pid="$1" cmd
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ "$cmd" == *kafka.Kafka*"$RUN/server.properties"* ]]
}
port_in_use() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }
# Who listens on port $1, as precisely as the machine tells: "pid 123 (java ... kafka.Kafka /x/server.properties)".
port_holder() {
  local pid cmd
  pid="$( (ss -ltnpH "sport = :$1" 2>/dev/null || true) | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)"
  if [[ -n "$pid" ]]; then
    cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"
    # A JVM's command line is mostly flags: keep its start and its end (main class, config file).
    ((${#cmd} > 200)) && cmd="${cmd:0:60} … ${cmd: -120}"
    echo "pid $pid ($cmd)"
  else
    echo "a process this user cannot see"
  fi
}
# Exit status when a port is held by something else: callers (npm test) may then start a broker elsewhere.
EXIT_PORT_HELD=3

command -v java >/dev/null || die "java not found on PATH (Java 17+ needed)"
mkdir -p "$BASE"

# One kafka-up at a time (two `npm start`s racing would otherwise both download and both start).
# fd 9 is closed for the broker below, or the broker would hold this lock for its whole life.
if command -v flock >/dev/null; then
  exec 9>"$BASE/.up.lock"
  flock -w 300 9 || die "another kafka-up.sh holds $BASE/.up.lock"
fi

# 0) Ours already running? Nothing to do.
if [[ -f "$PIDFILE" ]] && is_our_broker "$(cat "$PIDFILE")"; then
  echo "kafka already running on $HOST:$PORT (pid $(cat "$PIDFILE"))"
  exit 0
fi
for p in "$PORT" "$CONTROLLER_PORT"; do
  if port_in_use "$p"; then
    echo "kafka-up: port $p on $HOST is held by $(port_holder "$p"), not by the broker recorded in $PIDFILE." >&2
    echo "kafka-up: stop that process, point the apps at a broker with KAFKA_BROKERS, or choose other ports" \
      "with KAFKA_PORT and KAFKA_CONTROLLER_PORT (see docs/kafka-local.md)." >&2
    exit "$EXIT_PORT_HELD"
  fi
done

# 1) Jars, once per version, from Maven Central. Downloaded into a temp dir and renamed when complete.
if [[ ! -f "$LIB/.complete" ]]; then
  command -v mvn >/dev/null || die "mvn not found on PATH (needed once to download Kafka $KAFKA_VERSION)"
  echo "kafka: downloading Apache Kafka $KAFKA_VERSION jars to $LIB (first run only)"
  t0="$(now)"
  tmp="$LIB.tmp.$$"
  mvnlog="$BASE/mvn-$KAFKA_VERSION.log"
  : >"$mvnlog"
  ok=""
  # Retry once. The retry passes -U: Maven caches a failed download (*.lastUpdated) and would otherwise
  # refuse to try again until Central's update interval has passed.
  for extra in "" "-U"; do
    rm -rf "$tmp"
    # shellcheck disable=SC2086
    if mvn -B -q $extra -f "$HERE/pom.xml" -Dkafka.version="$KAFKA_VERSION" \
        dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp" >>"$mvnlog" 2>&1 \
      && [[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]]; then
      ok=1
      break
    fi
    echo "kafka-up: Maven download failed${extra:+ again}; see $mvnlog" >&2
    [[ -z "$extra" ]] && sleep 3
  done
  if [[ -z "$ok" ]]; then
    tail -n 30 "$mvnlog" >&2 || true
    rm -rf "$tmp"
    die "could not download org.apache.kafka:kafka_2.13:$KAFKA_VERSION (is Maven Central reachable?)"
  fi
  rm -rf "$LIB"
  mv "$tmp" "$LIB"
  echo "$(ls "$LIB"/*.jar | wc -l) jars, $(elapsed "$t0") s" >"$LIB/.complete"
fi

# 2) Keep the data of earlier runs (a restart must not lose topics, offsets or unconsumed events); the
#    config files are written afresh on every start. Tests never depend on leftovers: each test stack uses
#    topics of its own prefix and deletes them. kafka-reset.sh is the explicit way to start empty.
mkdir -p "$RUN/data" "$LOGS"
# The readiness check below looks for a line of this start, not one left by the previous run.
if [[ -f "$LOGS/server.log" ]]; then mv -f "$LOGS/server.log" "$LOGS/server.log.previous"; fi

cat >"$RUN/server.properties" <<PROPS
# Written by deploy/local/kafka/kafka-up.sh on every start; edit the script, not this file.
# Java .properties have no inline comments: every comment stays on its own line.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$CONTROLLER_PORT
listeners=PLAINTEXT://$HOST:$PORT,CONTROLLER://$HOST:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$PORT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$RUN/data
# One broker: the internal topics must be RF 1 (offsets RF 3 by default => no group coordinator, ever).
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
default.replication.factor=1
min.insync.replicas=1
# Fast first consumer-group join (default 3000 ms).
group.initial.rebalance.delay.ms=0
# Topics are pre-created (ensureTopics in deploy/local/kafka-topics.ts); auto-creation stays as a fallback.
auto.create.topics.enable=true
num.partitions=1
delete.topic.enable=true
# Small footprint on a 2-core machine.
num.network.threads=2
num.io.threads=2
num.recovery.threads.per.data.dir=1
background.threads=2
# Default 128 MiB, allocated on the heap when the log cleaner starts.
log.cleaner.dedupe.buffer.size=33554432
PROPS

cat >"$RUN/log4j.properties" <<'L4J'
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=${kafka.logs.dir}/server.log
log4j.appender.file.Append=false
log4j.appender.file.MaxFileSize=50MB
log4j.appender.file.MaxBackupIndex=2
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.org.apache.kafka.clients=WARN
L4J

CP="$LIB/*"
LOG_OPTS=(-Dlog4j.configuration="file:$RUN/log4j.properties")

# 3) Format KRaft storage, once: a formatted data dir (meta.properties) keeps its data and cluster id.
#    controller.quorum.voters is set (static quorum), so no --standalone.
#    C1-only JIT (TieredStopAtLevel=1) saves ~0.1 s of this short-lived JVM's ~0.7 s; the long-lived broker
#    below keeps the full JIT (C1-only there saved only ~0.2 s of ~2 s and lowers steady-state speed).
if [[ ! -f "$RUN/data/meta.properties" ]] && ! java -Xmx256m -XX:TieredStopAtLevel=1 "${LOG_OPTS[@]}" -Dkafka.logs.dir="$LOGS/storage-tool" \
    -cp "$CP" kafka.tools.StorageTool format -t "$CLUSTER_ID" -c "$RUN/server.properties" \
    >"$LOGS/format.log" 2>&1 </dev/null; then
  cat "$LOGS/format.log" >&2
  die "kafka.tools.StorageTool format failed"
fi

# 4) Start broker+controller in the background, in its own session (Ctrl-C on `npm start` must not kill it),
#    with no stdin and no inherited stdout/stderr (so `npm start` and CI steps do not wait on the broker),
#    and without the lock fd. The inner bash writes its own pid and then execs java, so the pid is java's.
t0="$(now)"
launcher=()
command -v setsid >/dev/null && launcher=(setsid)
# shellcheck disable=SC2016
"${launcher[@]}" bash -c 'echo $$ >"$0"; exec "$@"' "$PIDFILE" \
  java $HEAP_OPTS -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
  -XX:+ExplicitGCInvokesConcurrent -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
  "${LOG_OPTS[@]}" -Dkafka.logs.dir="$LOGS" -cp "$CP" kafka.Kafka "$RUN/server.properties" \
  </dev/null >"$LOGS/stdout.log" 2>&1 9>&- &

for _ in $(seq 1 50); do [[ -s "$PIDFILE" ]] && break; sleep 0.1; done
[[ -s "$PIDFILE" ]] || die "broker process did not start (no pid written to $PIDFILE)"
PID="$(cat "$PIDFILE")"

# 5) Wait for KafkaRaftServer's "Kafka Server started" (broker unfenced, listeners accepting requests).
deadline=$(($(date +%s) + READY_TIMEOUT_S))
until grep -qs "Kafka Server started" "$LOGS/server.log"; do
  if ! kill -0 "$PID" 2>/dev/null; then
    echo "kafka-up: broker (pid $PID) exited during start-up; last log lines:" >&2
    tail -n 40 "$LOGS/stdout.log" "$LOGS/server.log" >&2 2>/dev/null || true
    rm -f "$PIDFILE"
    exit 1
  fi
  if (($(date +%s) > deadline)); then
    echo "kafka-up: broker (pid $PID) not ready after ${READY_TIMEOUT_S}s; last log lines:" >&2
    tail -n 40 "$LOGS/server.log" >&2 2>/dev/null || true
    bash "$HERE/kafka-down.sh" >&2 || true
    exit 1
  fi
  sleep 0.25
done
echo "kafka $KAFKA_VERSION ready on $HOST:$PORT (pid $PID, started in $(elapsed "$t0") s; logs: $LOGS)"
