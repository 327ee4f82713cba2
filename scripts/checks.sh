#!/bin/sh
# The type checks of the server (with the tests, the benchmarks and the scripts) and of the
# example app: the first part of `npm run lint`, before ESLint (with type information) and
# Prettier. Fails if either fails. They once ran beside `npm test`, where they took a minute of
# CPU from a suite that keeps both cores busy.
set -u
tsc --noEmit && tsc --noEmit -p examples/tree-explorer
