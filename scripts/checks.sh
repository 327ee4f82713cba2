#!/bin/sh
# `npm test`'s static checks: the type checks of the server (with the tests, the benchmarks and
# the scripts) and of the example app. Fails if either fails. The lint (ESLint with type
# information, then Prettier) is `npm run lint`, run before every commit: beside the tests it
# took a sixth of the suite's two cores.
set -u
tsc --noEmit && tsc --noEmit -p examples/tree-explorer
