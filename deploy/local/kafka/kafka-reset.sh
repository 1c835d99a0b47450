#!/usr/bin/env bash
# Stop the local broker (kafka-down.sh) and delete its data: every topic, consumer offset and event.
# The only command that does; kafka-up.sh keeps the data across restarts. The jars stay.
#
#   bash deploy/local/kafka/kafka-reset.sh   (npm run kafka:reset)
set -euo pipefail

HERE="$(cd -P "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
REPO="$(cd -P "$HERE/../../.." && pwd)"
BASE="${KAFKA_BASE_DIR:-$REPO/.kafka}"
RUN="$BASE/run"

bash "$HERE/kafka-down.sh"
rm -rf "$RUN"
echo "kafka data deleted ($RUN); the next kafka-up.sh starts an empty broker"
