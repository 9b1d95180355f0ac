#!/bin/sh
# Loads a run's metrics.om into the Prometheus of grafana/docker-compose.yml:
#   grafana/backfill.sh reports/diurnal-day/metrics.om
# promtool runs in the Prometheus image (nothing to install) and writes blocks into its data
# volume; Prometheus is then restarted so it opens them. Runs from any directory.
set -eu
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: grafana/backfill.sh PATH/TO/metrics.om (a file written by loadlab run or loadlab report)" >&2
  exit 2
fi
compose="$(cd "$(dirname "$0")" && pwd)/docker-compose.yml"
file="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
docker compose -f "$compose" run --rm --no-deps -v "$file:/import/metrics.om:ro" --entrypoint promtool \
  prometheus tsdb create-blocks-from openmetrics /import/metrics.om /prometheus
docker compose -f "$compose" restart prometheus
echo "loaded $1: open http://localhost:3000/d/loadlab-run and set the time range to the run's (loadlab run prints it)"
