#!/usr/bin/env bash
# Runs the Terraform-layer tests (every package whose tests drive the CLI:
# those that import internal/acctest or terraform-plugin-testing) and
# scripts/install-check.sh once per binary, so the provider is known to work
# under each Terraform and OpenTofu named, not only the one on PATH.
#
#   scripts/test-matrix.sh [BINARY...]
#
# The binaries are the arguments, else those of TF_MATRIX (paths, space
# separated), else the terraform on PATH. Each run has TF_ACC_TERRAFORM_PATH
# set to its binary and, for OpenTofu, TF_ACC_PROVIDER_HOST=registry.opentofu.org
# (the host OpenTofu reads `seedcompute/compute` under).
#
# Environment:
#   TEST_MATRIX_PKGS     the packages to run (default: found as above)
#   TEST_MATRIX_RUN      a -run pattern to narrow the tests (default: all)
#   TEST_TIMEOUT         go test's -timeout for one binary's run (default: 60m, as make test)
#   TEST_MATRIX_LOG_DIR  keep each binary's full go test -v log there
#
# It goes on after a failing binary and fails at the end when any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
# fail, select_binaries, tf_version_line, tf_provider_host.
. scripts/lib.sh

select_binaries "$@"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/compute-test-matrix.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
logs=${TEST_MATRIX_LOG_DIR:-$scratch}
mkdir -p "$logs"

read -r -a pkgs <<<"${TEST_MATRIX_PKGS:-}"
if ((${#pkgs[@]} == 0)); then
	# go list runs on its own, not inside a pipe or a process substitution,
	# whose failure would pass for a listing with no such package.
	listing=$(go list -f '{{.ImportPath}}|{{join .TestImports " "}} {{join .XTestImports " "}}' ./...) ||
		fail "go list ./... failed (its error is above); the packages to run cannot be found"
	found=$(grep -E '/internal/acctest( |$)|/terraform-plugin-testing' <<<"$listing" | cut -d'|' -f1) || true
	[[ -z $found ]] || mapfile -t pkgs <<<"$found"
	((${#pkgs[@]})) || fail "found no package whose tests import internal/acctest or terraform-plugin-testing"
fi

results=()
failed=0
for bin in "${binaries[@]}"; do
	path=$(command -v "$bin") || fail "$bin is not an executable file or a command on PATH"
	path=$(realpath "$path")
	line=$(tf_version_line "$path") || exit 1
	host=$(tf_provider_host "$line")
	name=$(tr ' ' '-' <<<"$line")
	log="$logs/$name.log"
	printf '\n==== test-matrix: %s (%s), provider host %s\n' "$line" "$path" "$host"
	started=$SECONDS
	tests=ok
	if TF_ACC_TERRAFORM_PATH=$path TF_ACC_PROVIDER_HOST=$host \
		scripts/tfenv.sh go test -v -count=1 -timeout "${TEST_TIMEOUT:-60m}" -run "${TEST_MATRIX_RUN:-.}" "${pkgs[@]}" >"$log" 2>&1; then
		grep -E '^(ok|FAIL)\s' "$log" || true
	else
		tests=FAILED
		# Everything but the progress lines: the failures with their output.
		grep -vE '^(=== (RUN|PAUSE|CONT|NAME)|\s*--- PASS)' "$log" || true
	fi
	tests_took=$((SECONDS - started))
	# Each skip with its reason: -v streams what a test logs under a
	# header that names it.
	skips=$(awk '
		/^=== (RUN|CONT|NAME) / { current = $3; next }
		/^[ \t]*--- SKIP: / { printf "  %s:%s\n", $3, ($3 in said ? said[$3] : " (no reason logged)"); next }
		/^[ \t]*--- / { current = ""; next }
		/^    [^ ]/ && current != "" { line = $0; sub(/^[ \t]+/, "", line); said[current] = said[current] " " line }
	' "$log")
	if [[ -n $skips ]]; then
		echo "test-matrix: skipped under $line:"
		echo "$skips"
	fi
	install=ok
	scripts/install-check.sh "$path" || install=FAILED
	took=$((SECONDS - started))
	[[ $tests == ok && $install == ok ]] || failed=1
	passed=$(grep -cE '^ok\s' "$log" || true)
	skipped=$(grep -cE '^\s*--- SKIP' "$log" || true)
	results+=("$(printf '%s: tests %s (%d of %d packages passed, %d tests skipped) in %ds; install-check %s; %ds in all' \
		"$line" "$tests" "$passed" "${#pkgs[@]}" "$skipped" "$tests_took" "$install" "$took")")
	printf '==== test-matrix: %s: tests %s, install-check %s, in %ds\n' "$line" "$tests" "$install" "$took"
done

printf '\n==== test-matrix summary\n'
printf '%s\n' "${results[@]}"
((failed == 0)) || fail "at least one binary failed; its section above shows the failures"
