#!/bin/sh
# `npm test`'s static checks: the type checks (the server's, the example app's) and the lint, run
# side by side (each is one process; two cores do both in the time of the longer). Fails if any
# fails.
set -u
(tsc --noEmit && tsc --noEmit -p examples/tree-explorer) &
types=$!
npm run -s lint &
lint=$!
wait "$types"
typed=$?
wait "$lint"
linted=$?
[ "$typed" -eq 0 ] && [ "$linted" -eq 0 ]
