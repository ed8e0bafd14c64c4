#!/bin/sh
# The KQKR sweep (`nosce kqkr`) as a Slurm array job: scripts/slurm-array.sh -s kqkr, with
# the same options (see there).
#
#   scripts/kqkr-slurm.sh [options] [-- nosce kqkr options]
exec "$(dirname "$0")/slurm-array.sh" -s kqkr "$@"
