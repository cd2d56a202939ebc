# Shared by the scripts that drive several Terraform and OpenTofu binaries
# (scripts/test-matrix.sh, scripts/install-check.sh, .ci/run). Sourced, not
# run:
#
#   lib_name=install-check   # the prefix of fail's messages (default: the script's name)
#   . scripts/lib.sh
#
# It defines functions only and changes no shell option; the scripts set
# `set -euo pipefail` themselves.

lib_name=${lib_name:-$(basename "$0" .sh)}

# fail MESSAGE...: says MESSAGE on stderr, prefixed by the script's name, and
# exits 1.
fail() {
	echo "$lib_name: $*" >&2
	exit 1
}

# select_binaries [BINARY...]: sets the array `binaries` to the arguments,
# else to the paths of TF_MATRIX (space separated), else to the terraform on
# PATH; fails when none is given and terraform is not on PATH.
select_binaries() {
	binaries=("$@")
	if ((${#binaries[@]} == 0)); then
		read -r -a binaries <<<"${TF_MATRIX:-}"
	fi
	if ((${#binaries[@]} == 0)); then
		command -v terraform >/dev/null 2>&1 ||
			fail "terraform is not on PATH; install Terraform >= 1.11, or name terraform or tofu binaries as arguments or in TF_MATRIX"
		binaries=(terraform)
	fi
}

# tf_version_line BINARY: prints the first "Terraform vX.Y.Z" or
# "OpenTofu vX.Y.Z" line of `BINARY version`, which tells the two apart;
# says why on stderr and returns 1 when there is none. The binary runs with
# an empty CLI configuration, so that a user's file changes nothing and
# OpenTofu has no missing TF_CLI_CONFIG_FILE to warn about on stdout.
tf_version_line() {
	local bin=$1 rc out line
	rc=$(mktemp "${TMPDIR:-/tmp}/compute-version-rc.XXXXXX") || return 1
	# The whole output first: a reader that stops at the first match would
	# cut the binary's pipe, and pipefail would count its SIGPIPE.
	out=$(TF_CLI_CONFIG_FILE="$rc" CHECKPOINT_DISABLE=1 "$bin" version 2>/dev/null) || true
	rm -f "$rc"
	line=$(grep -m 1 -E '^(OpenTofu|Terraform) v' <<<"$out") || {
		echo "$lib_name: $bin version printed no 'Terraform v…' or 'OpenTofu v…' line; is it a terraform or tofu binary?" >&2
		return 1
	}
	printf '%s\n' "$line"
}

# tf_provider_host VERSION_LINE: the registry host under which that binary
# reads `source = "seedcompute/compute"`: registry.opentofu.org for
# OpenTofu, registry.terraform.io for Terraform.
tf_provider_host() {
	if [[ $1 == OpenTofu* ]]; then
		echo registry.opentofu.org
	else
		echo registry.terraform.io
	fi
}
