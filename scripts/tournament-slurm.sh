#!/bin/sh
# The Bao tournaments (`nosce tournament`) as a Slurm array job: scripts/slurm-array.sh -s
# tournament, with the same options (see there). Example, the full run on 50 tasks:
#
#   scripts/tournament-slurm.sh -n 50 -c 2 -o /shared/runs/bao -- --full
exec "$(dirname "$0")/slurm-array.sh" -s tournament "$@"
