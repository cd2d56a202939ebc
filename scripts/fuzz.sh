#!/usr/bin/env bash
# Runs every native fuzz target (func FuzzX(f *testing.F) in a _test.go
# file) for FUZZTIME each, one after the other. `go test` (and so
# `make test`) runs only their seeds; this explores from them. A target
# that fails leaves its input under the package's testdata/fuzz/FuzzX/:
# fix the code and commit that file, which `go test` then runs as a seed.
#
#   scripts/fuzz.sh                        # every target, 30s each
#   FUZZTIME=5m scripts/fuzz.sh            # longer
#   FUZZ_MATCH=Classify scripts/fuzz.sh    # the targets whose name matches
#   FUZZ_PARALLEL=4 scripts/fuzz.sh        # more workers per target (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${FUZZTIME:-30s}
parallel=${FUZZ_PARALLEL:-1}
match=${FUZZ_MATCH:-.}
go=${GO:-go}

# "dir name" per target, found in the sources rather than by compiling
# every test package.
mapfile -t targets < <(grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*(f \*testing\.F)' . |
	sed -E 's|^\./||; s|^(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\(.*$|\1 \2|' | sort -u | grep -E " .*${match}")
if ((${#targets[@]} == 0)); then
	echo "fuzz: no fuzz target matches FUZZ_MATCH=$match" >&2
	exit 2
fi

failed=()
for t in "${targets[@]}"; do
	read -r dir name <<<"$t"
	echo "fuzz: ./$dir $name for $fuzztime"
	if ! "$go" test "./$dir" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -parallel "$parallel"; then
		failed+=("./$dir $name")
	fi
done
if ((${#failed[@]})); then
	printf 'fuzz: failed: %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "fuzz: ${#targets[@]} targets, $fuzztime each, found nothing"
