#!/usr/bin/env bash
# Runs the suite `make test` runs while one busy loop per core keeps every
# core occupied, as on a CI machine shared with other jobs. A test that
# leans on how fast the machine is (a wall-clock bound, a sleep standing in
# for a barrier) fails here first.
#
#   scripts/test-stress.sh                  # make test under load
#   STRESS_LOOPS=4 scripts/test-stress.sh   # more loops than cores
set -euo pipefail
cd "$(dirname "$0")/.."

loops=${STRESS_LOOPS:-$(nproc)}
if ! [[ $loops =~ ^[0-9]+$ ]] || ((loops < 1)); then
	echo "test-stress: STRESS_LOOPS=$loops: want a whole number of busy loops, 1 or more" >&2
	exit 2
fi

pids=()
# The loops end with the script, however it ends: a loop left behind would
# slow every later run on the machine.
stop_loops() {
	((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
	wait 2>/dev/null || true
}
trap stop_loops EXIT
trap 'exit 130' INT TERM

for ((i = 0; i < loops; i++)); do
	# A shell loop that never sleeps: a full core each, at normal priority,
	# so the suite competes with it as with another job.
	bash -c 'while :; do :; done' &
	pids+=("$!")
done
echo "test-stress: $loops busy loops on $(nproc) cores; running make test"

started=$SECONDS
rc=0
make test "$@" || rc=$?
took=$((SECONDS - started))
if ((rc == 0)); then
	echo "test-stress: PASS in ${took}s with $loops busy loops"
else
	echo "test-stress: FAIL (make test exited $rc) after ${took}s with $loops busy loops"
fi
exit "$rc"
