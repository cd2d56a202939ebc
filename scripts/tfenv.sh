#!/usr/bin/env bash
# Runs a command with a throw-away Terraform CLI configuration, so that the
# user's own ~/.terraformrc (credentials, plugin caches, provider mirrors) never
# changes what a test or a doc build does, and nothing asks a registry or the
# update checkpoint service.
#
#   scripts/tfenv.sh go test ./...
set -euo pipefail

scratch=$(mktemp -d "${TMPDIR:-/tmp}/compute-tfenv.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
: >"$scratch/terraformrc"

export TF_CLI_CONFIG_FILE="$scratch/terraformrc"
export CHECKPOINT_DISABLE=1
export TF_IN_AUTOMATION=1
export TF_INPUT=0
unset TF_PLUGIN_CACHE_DIR

"$@"
