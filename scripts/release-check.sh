#!/usr/bin/env bash
# Checks the release `make release-snapshot` (or a release) wrote into dist/
# against what the Terraform Registry and a private registry take: one zip per
# platform named terraform-provider-compute_<version>_<os>_<arch>.zip holding
# only the binary terraform-provider-compute_v<version> (built for that
# platform, without cgo, with the version and commit inside: the binary
# for this machine's platform is run with -version), the manifest
# terraform-provider-compute_<version>_manifest.json equal to
# terraform-registry-manifest.json, and a SHA256SUMS file that lists every zip
# and the manifest and whose sums match. The signature is not checked: a
# snapshot has none unless GPG_FINGERPRINT named a key.
#
#   scripts/release-check.sh [DIST]    # DIST defaults to dist
set -euo pipefail
cd "$(dirname "$0")/.."

dist=${1:-dist}
name=terraform-provider-compute
platforms=(linux_amd64 linux_arm64 darwin_amd64 darwin_arm64 windows_amd64 windows_arm64 freebsd_amd64 freebsd_arm64)
fail() {
	echo "release-check: $*" >&2
	exit 1
}
[[ -f $dist/metadata.json ]] || fail "$dist/metadata.json is missing: run make release-snapshot first"
for tool in unzip sha256sum; do
	command -v "$tool" >/dev/null 2>&1 || fail "$tool is not on PATH; install it (Debian: apt-get install $tool)"
done

# The version GoReleaser built, from its own record of the run.
version=$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' "$dist/metadata.json")
[[ -n $version ]] || fail "$dist/metadata.json names no version"
want=$(cat VERSION)
[[ $version == "$want" || $version == "$want"-* ]] ||
	fail "dist/ holds version $version, which is not VERSION ($want) or a snapshot of it"

commit=$(sed -n 's/.*"commit":"\([^"]*\)".*/\1/p' "$dist/metadata.json")
[[ -n $commit ]] || fail "$dist/metadata.json names no commit"
host=$(go env GOOS)_$(go env GOARCH)
ran=

scratch=$(mktemp -d "${TMPDIR:-/tmp}/compute-release-check.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

expected=()
for platform in "${platforms[@]}"; do
	zip="${name}_${version}_${platform}.zip"
	expected+=("$zip")
	[[ -f $dist/$zip ]] || fail "$dist/$zip is missing"
	binary="${name}_v${version}"
	[[ $platform == windows_* ]] && binary+=.exe
	listed=$(unzip -Z1 "$dist/$zip")
	[[ $listed == "$binary" ]] || fail "$zip holds [$(echo $listed)], want only $binary"
	unzip -q -o "$dist/$zip" -d "$scratch/$platform"
	# The binary's own build record: the platform, no cgo, and the version
	# the provider reports to Terraform and writes in its log.
	info=$(go version -m "$scratch/$platform/$binary")
	goos=${platform%_*} goarch=${platform#*_}
	grep -q "GOOS=$goos\$" <<<"$info" || fail "$zip: the binary is not built for GOOS=$goos"
	grep -q "GOARCH=$goarch\$" <<<"$info" || fail "$zip: the binary is not built for GOARCH=$goarch"
	grep -q "CGO_ENABLED=0\$" <<<"$info" || fail "$zip: the binary is built with cgo"
	# The version and commit: the host's binary says them itself
	# (-version); another platform's cannot run here, and -trimpath keeps
	# -ldflags out of its build record, so it must hold the one string
	# -X main.build set, "<version>+<commit>", which nothing else in a
	# binary spells (a dependency's "v0.1.0" matches the version alone).
	if [[ $platform == "$host" ]]; then
		got=$("$scratch/$platform/$binary" -version) || fail "$zip: $binary -version failed"
		[[ $got == "$name $version (commit $commit)" ]] ||
			fail "$zip: $binary -version prints \"$got\", want \"$name $version (commit $commit)\" (-X main.build in .goreleaser.yml)"
		ran=yes
	else
		grep -aqF -- "$version+$commit" "$scratch/$platform/$binary" ||
			fail "$zip: the binary does not hold \"$version+$commit\" (-X main.build in .goreleaser.yml)"
	fi
done
[[ -n $ran ]] || fail "no zip is for this machine's platform ($host), so no binary's -version was run"
extra=$(cd "$dist" && ls -1 ./*.zip | sed 's|^\./||' | grep -vxF -f <(printf '%s\n' "${expected[@]}") || true)
[[ -z $extra ]] || fail "$dist holds zips no platform asks for: $extra"

manifest="${name}_${version}_manifest.json"
[[ -f $dist/$manifest ]] || fail "$dist/$manifest is missing"
cmp -s "$dist/$manifest" terraform-registry-manifest.json ||
	fail "$dist/$manifest differs from terraform-registry-manifest.json"
grep -q '"protocol_versions": *\["6.0"\]' "$dist/$manifest" ||
	fail "$dist/$manifest does not name protocol version 6.0, which the provider serves"

sums="${name}_${version}_SHA256SUMS"
[[ -f $dist/$sums ]] || fail "$dist/$sums is missing"
listed=$(awk '{print $2}' "$dist/$sums" | sort)
wanted=$(printf '%s\n' "${expected[@]}" "$manifest" | sort)
[[ $listed == "$wanted" ]] || fail "$sums lists
$listed
want
$wanted"
(cd "$dist" && sha256sum --quiet -c "$sums") || fail "a sum in $sums does not match its file"

signed="unsigned (no GPG_FINGERPRINT)"
[[ -f $dist/$sums.sig ]] && signed="signed: $sums.sig (not verified here)"
echo "release-check: $dist holds $name $version (commit $commit): ${#platforms[@]} zips, $manifest, $sums ($signed); names, contents and sums match"
