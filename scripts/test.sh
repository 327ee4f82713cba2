#!/bin/sh
# `npm test`: the type checks (scripts/checks.sh) beside the test project `all` (vitest; the long
# suite is `npm run test:long`, docs/testing.md). The tests leave a
# core idle while they wait on jobs' leases, processes and timers; the checks fill it. Both run
# to their end; fails if either fails. Arguments go to vitest. The lint is `npm run lint`.
set -u
log=$(mktemp)
sh scripts/checks.sh > "$log" 2>&1 &
checks=$!
vitest run --project all "$@"
tested=$?
wait "$checks"
checked=$?
cat "$log"
rm -f "$log"
if [ "$checked" -ne 0 ]; then echo "npm test: the type checks failed (above)" >&2; fi
[ "$tested" -eq 0 ] && [ "$checked" -eq 0 ]
