#!/usr/bin/env bash
# Checks that `make install` puts the provider where `terraform init` finds
# it with a backend configured and no registry: it installs into a scratch
# filesystem mirror, writes the CLI configuration the README shows, and runs
# terraform init (then plan) in a configuration with a local backend. Runs
# offline: the provider's address is excluded from direct installation.
#
#   scripts/install-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=$(mktemp -d "${TMPDIR:-/tmp}/compute-install-check.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() {
	echo "install-check: $*" >&2
	exit 1
}

version=$(cat VERSION)
mirror="$scratch/mirror"
make --no-print-directory install MIRROR="$mirror" VERSION="$version" >"$scratch/install.log" 2>&1 ||
	{ cat "$scratch/install.log" >&2; fail "make install failed"; }
platform="$(go env GOOS)_$(go env GOARCH)"
binary="$mirror/registry.terraform.io/seedcompute/compute/$version/$platform/terraform-provider-compute_v$version"
[[ -x $binary ]] || fail "make install did not write $binary"

cat >"$scratch/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$mirror"
    include = ["registry.terraform.io/seedcompute/compute"]
  }
  direct {
    exclude = ["registry.terraform.io/seedcompute/compute"]
  }
}
RC
export TF_CLI_CONFIG_FILE="$scratch/terraformrc"
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0
unset TF_PLUGIN_CACHE_DIR

work="$scratch/work"
mkdir -p "$work"
cat >"$work/main.tf" <<'TF'
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

(cd "$work" && terraform init -no-color -input=false) >"$scratch/init.log" 2>&1 ||
	{ cat "$scratch/init.log" >&2; fail "terraform init failed with the installed provider"; }
grep -q "Installing seedcompute/compute v$version" "$scratch/init.log" ||
	{ cat "$scratch/init.log" >&2; fail "terraform init did not install seedcompute/compute v$version from the mirror"; }
grep -Eq "version += +\"$version\"" "$work/.terraform.lock.hcl" ||
	fail "the lock file does not record version $version"
# The provider runs: a plan of an account whose token is not set plans it,
# with the warning the account docs promise, and never calls a backend.
(cd "$work" && terraform plan -no-color -input=false -refresh=false) >"$scratch/plan.log" 2>&1 ||
	{ cat "$scratch/plan.log" >&2; fail "terraform plan failed with the installed provider"; }
grep -q "1 to add" "$scratch/plan.log" || { cat "$scratch/plan.log" >&2; fail "the plan does not add the account"; }
echo "install-check: make install wrote $binary; terraform init with a local backend installed it from the mirror, and plan ran it"
