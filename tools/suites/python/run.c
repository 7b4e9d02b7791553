/*
 * run.c - the `python` suite's measurement: none here. Its rows come from
 * the Python package (`python -m gridsync.bench --json FILE`,
 * python/src/gridsync/bench.py), so its runner has no run function: a plain
 * `gridsync bench` leaves it out, and `gridsync bench python` says where its
 * rows come from (suites/run.c). Its description: describe.c.
 */
#include "harness/params.h"

const gs_bench_runner gs_runner_python = {.run = NULL, .rank_child = NULL};
