#!/usr/bin/env bash
# make testacc against the standalone emulator: the same command a user
# starts with `make emulator`, as its own process on a free loopback port.
# Builds it, starts it with a fresh token, waits until its API answers, runs
# `make testacc` (the lifecycle tests by default: TESTACC_RUN) and `make
# sweep` against it, checks that nothing was left behind, and stops it.
#
# Environment:
#   TESTACC_RUN   the tests to run (default: the lifecycle tests that run
#                 against any target)
#   TESTACC_PKGS  the packages they are in
#
# Whatever happens, the emulator is stopped and the scratch directory removed.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

die() {
	printf 'testacc-emulator: %s\n' "$*" >&2
	exit 1
}
for tool in curl jq; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is not on PATH; it reads the emulator's answers (apt-get install curl jq)"
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/compute-testacc.XXXXXX")
emulator_pid=
cleanup() {
	status=$?
	if [[ -n "$emulator_pid" ]] && kill -0 "$emulator_pid" 2>/dev/null; then
		kill -TERM "$emulator_pid" 2>/dev/null || true
		wait "$emulator_pid" 2>/dev/null || true
	fi
	if [[ $status -ne 0 && -s "$scratch/emulator.err" ]]; then
		echo "testacc-emulator: the emulator's error output:" >&2
		tail -n 20 "$scratch/emulator.err" >&2
	fi
	rm -rf "$scratch"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

go build -o "$scratch/compute-emulator" ./tools/emulator
# A token of this run only: the tests read it as HCLOUD_TOKEN.
token="testacc-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
"$scratch/compute-emulator" -listen 127.0.0.1:0 -token "$token" >"$scratch/emulator.out" 2>"$scratch/emulator.err" &
emulator_pid=$!

# The emulator prints its URL once the port is open; then it must answer an
# authenticated request, so a broken token or route fails here, not in a test.
endpoint=
for _ in $(seq 1 100); do
	endpoint=$(awk '$1 == "hcloud" { print $2; exit }' "$scratch/emulator.out")
	[[ -n "$endpoint" ]] && break
	kill -0 "$emulator_pid" 2>/dev/null || die "the emulator exited before announcing its address"
	sleep 0.1
done
[[ -n "$endpoint" ]] || die "the emulator announced no 'hcloud URL' line within 10s"
curl -fsS --max-time 5 -H "Authorization: Bearer $token" "$endpoint/locations" >/dev/null ||
	die "the emulator at $endpoint does not answer an authenticated request"
echo "testacc-emulator: the standalone emulator serves $endpoint (pid $emulator_pid)"

# The lifecycle tests run against any target; the rest of the packages'
# tests need the in-process emulator, which make test already ran.
run=${TESTACC_RUN:-'^(TestInstanceLifecycle|TestAccountCreateReadImport|TestOffersAnyTarget)$'}
pkgs=${TESTACC_PKGS:-./internal/account ./internal/instance ./internal/offers}
make --no-print-directory testacc COMPUTE_TEST_ENDPOINT="$endpoint" HCLOUD_TOKEN="$token" TESTACC_RUN="$run" TESTACC_PKGS="$pkgs"

# Every test destroyed what it made. The sweep then meets what an interrupted
# run leaves: a managed machine with the test prefix and the test label, which
# must go, beside a prefixed one made by hand, a prefixed managed one of a
# user's configuration (no test label), one whose mark was set by hand, and a
# managed one of someone's configuration, which must all stay.
api() { curl -fsS --max-time 5 -H "Authorization: Bearer $token" "$@"; }
# The servers not being deleted, by name.
names() { api "$endpoint/servers" | jq -r '[.servers[] | select(.status != "deleting") | .name] | sort | join(" ")'; }
left=$(names)
[[ -z "$left" ]] || die "servers left on the emulator after the tests: $left"
# The tests must have reached this emulator, not one of their own.
creates=$(curl -fsS --max-time 5 "${endpoint%/v1}/_emulator/stats" | jq '."POST /servers" // 0')
[[ "$creates" -gt 0 ]] || die "no test created a server on the standalone emulator; did the tests pick another target?"
seed() {
	api -o /dev/null -H 'Content-Type: application/json' \
		-d "{\"name\":\"$1\",\"server_type\":\"cx22\",\"image\":\"ubuntu-24.04\",\"labels\":$2}" "$endpoint/servers"
}
managed='{"compute.seedcompute.io/managed":"true"}'
left_by_a_test='{"compute.seedcompute.io/managed":"true","tfacc":"sweepable"}'
seed tfacc-left-behind "$left_by_a_test"
seed tfacc-made-by-hand '{"tfacc":"sweepable"}'
seed tfacc-my-production-db "$managed"
seed tfacc-marked-by-hand '{"compute.seedcompute.io/managed":"true","tfacc":"mine"}'
seed web-1 "$managed"
make --no-print-directory sweep COMPUTE_TEST_ENDPOINT="$endpoint" HCLOUD_TOKEN="$token" >"$scratch/sweep.out" 2>&1 ||
	{ cat "$scratch/sweep.out" >&2; die "make sweep failed"; }
grep -E 'swept ' "$scratch/sweep.out" || true
want="tfacc-made-by-hand tfacc-marked-by-hand tfacc-my-production-db web-1"
left=$(names)
[[ "$left" == "$want" ]] || die "after make sweep the servers are '$left', want '$want'"
echo "testacc-emulator: done in $((SECONDS - started))s; the tests created and destroyed $creates servers, the sweep took only its own"
