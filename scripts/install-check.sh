#!/usr/bin/env bash
# Checks that `make install` puts the provider where `terraform init` and
# `tofu init` find it with a backend configured and no registry: it installs
# into a scratch filesystem mirror, takes the CLI configuration the README
# shows (one file for both binaries, the mirror's path put in), and for each
# binary runs init (then plan) in a configuration with a local backend. Runs offline: the provider's address
# is excluded from direct installation.
#
#   scripts/install-check.sh [BINARY...]
#
# The binaries are the arguments, else those of TF_MATRIX (paths, space
# separated), else the terraform on PATH. Each is Terraform or OpenTofu, told
# apart by what `version` prints; OpenTofu reads the provider's source under
# registry.opentofu.org, Terraform under registry.terraform.io.
set -euo pipefail
cd "$(dirname "$0")/.."
# fail, select_binaries, tf_version_line, tf_provider_host.
. scripts/lib.sh

select_binaries "$@"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/compute-install-check.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

version=$(cat VERSION)
mirror="$scratch/mirror"
make --no-print-directory install MIRROR="$mirror" VERSION="$version" >"$scratch/install.log" 2>&1 ||
	{ cat "$scratch/install.log" >&2; fail "make install failed"; }
platform="$(go env GOOS)_$(go env GOARCH)"

# readme_cli_config prints the README's CLI configuration for the filesystem
# mirror (its first provider_installation block holding filesystem_mirror),
# with the mirror's path put in for the example home directory.
readme_cli_config() {
	local block
	block=$(awk '/^provider_installation \{/ { grab = 1; text = "" } grab { text = text $0 "\n" } grab && /^\}/ { grab = 0; if (text ~ /filesystem_mirror/) { printf "%s", text; exit } }' README.md)
	[[ $block == *'"/home/you/.terraform.d/plugins"'* ]] ||
		fail "README.md has no provider_installation block with filesystem_mirror at \"/home/you/.terraform.d/plugins\"; the install check follows the README's"
	printf '%s\n' "${block//\"\/home\/you\/.terraform.d\/plugins\"/\"$mirror\"}"
}

# check BINARY: init with a local backend, then plan, with the README's CLI
# configuration.
check() {
	local bin=$1 name host version_line
	command -v "$bin" >/dev/null 2>&1 || fail "$bin is not an executable file or a command on PATH"
	version_line=$(tf_version_line "$bin") || exit 1
	host=$(tf_provider_host "$version_line")
	name=terraform
	[[ $host == registry.opentofu.org ]] && name=tofu
	local address="$host/seedcompute/compute"
	local binary="$mirror/$address/$version/$platform/terraform-provider-compute_v$version"
	[[ -x $binary ]] || fail "make install did not write $binary, which $name init looks for"

	local dir="$scratch/$(basename "$bin")-$RANDOM"
	mkdir -p "$dir/work"
	# The README's CLI configuration, word for word but for the mirror's
	# path: what a user copies is what is checked, for every binary.
	readme_cli_config >"$dir/cli.tfrc"
	cat >"$dir/work/main.tf" <<'TF'
terraform {
  backend "local" {
    path = "state/terraform.tfstate"
  }
  required_providers {
    compute = {
      source  = "seedcompute/compute"
      version = ">= 0.0.1"
    }
  }
}

provider "compute" {}

resource "compute_provider_account" "check" {
  name          = "install-check"
  hetzner_cloud = { token = "env://COMPUTE_INSTALL_CHECK_TOKEN" }
}
TF
	(cd "$dir/work" && TF_CLI_CONFIG_FILE="$dir/cli.tfrc" "$bin" init -no-color -input=false) >"$dir/init.log" 2>&1 ||
		{ cat "$dir/init.log" >&2; fail "$name init ($version_line) failed with the installed provider"; }
	grep -q "Installing seedcompute/compute v$version" "$dir/init.log" ||
		{ cat "$dir/init.log" >&2; fail "$name init ($version_line) did not install seedcompute/compute v$version from the mirror"; }
	grep -q "provider \"$address\"" "$dir/work/.terraform.lock.hcl" ||
		{ cat "$dir/work/.terraform.lock.hcl" >&2; fail "the lock file of $name init does not record $address"; }
	grep -Eq "version += +\"$version\"" "$dir/work/.terraform.lock.hcl" ||
		fail "the lock file of $name init does not record version $version"
	# The provider runs: a plan of an account whose token reference names an
	# unset variable plans it, with the warning the account docs promise (a
	# reference that cannot be resolved where the plan runs), and never calls
	# a backend.
	(cd "$dir/work" && TF_CLI_CONFIG_FILE="$dir/cli.tfrc" "$bin" plan -no-color -input=false -refresh=false) >"$dir/plan.log" 2>&1 ||
		{ cat "$dir/plan.log" >&2; fail "$name plan ($version_line) failed with the installed provider"; }
	grep -q "1 to add" "$dir/plan.log" || { cat "$dir/plan.log" >&2; fail "the plan of $name ($version_line) does not add the account"; }
	# Each binary wraps a diagnostic's text at its own width: match it as
	# one line.
	local said
	said=$(tr -s ' \n' '  ' <"$dir/plan.log")
	[[ $said == *"Warning: Secret reference cannot be resolved"*"environment variable COMPUTE_INSTALL_CHECK_TOKEN is not set"* ]] ||
		{ cat "$dir/plan.log" >&2; fail "the plan of $name ($version_line) does not warn that env://COMPUTE_INSTALL_CHECK_TOKEN cannot be resolved"; }
	echo "install-check: $version_line ($bin): $name init with a local backend installed $address $version from the mirror, and plan ran it and warned of the unset token"
}

export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0
# The plan's warning is about this variable being unset.
unset TF_PLUGIN_CACHE_DIR COMPUTE_INSTALL_CHECK_TOKEN
for bin in "${binaries[@]}"; do
	check "$bin"
done
echo "install-check: make install wrote the provider under registry.terraform.io and registry.opentofu.org of a scratch mirror, removed now"
