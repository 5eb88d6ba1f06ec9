#!/usr/bin/env bash
# The key is read from NIRVANA_LABS_API_KEY, the API from NIRVANA_LABS_BASE_URL.
set -euo pipefail
default_base='http://127.0.0.1:8080'
base=${NIRVANA_LABS_BASE_URL:-$default_base}
auth="Authorization: Bearer ${NIRVANA_LABS_API_KEY:?set NIRVANA_LABS_API_KEY}"

# Follows an operation until it is done or failed (pending, running and
# unknown are not terminal), then prints the id of the resource it changed.
wait_for() {
  local op
  while :; do
    op=$(curl -sS --fail-with-body "$base/v1/operations/$1" -H "$auth")
    case $(jq -r .status <<<"$op") in
      done) jq -r .resource_id <<<"$op"; return ;;
      failed) echo "operation $1 failed" >&2; return 1 ;;
    esac
    sleep 5
  done
}

# Update load balancer.
op=$(curl -sS --fail-with-body -X PATCH "$base/v1/nks/clusters/cluster-1/load_balancers/lb-1" \
  -H "$auth" -H "Content-Type: application/json" \
  --data '{"public_ip_enabled":true}')
load_balancer_id=$(wait_for "$(jq -r .id <<<"$op")")
echo "load balancer changed: $load_balancer_id"
