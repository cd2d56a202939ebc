#!/usr/bin/env bash
# Generates docs/ from the provider's schemas, templates/ and examples/ with the
# tfplugindocs version pinned in go.mod.
#
#   scripts/docs.sh          regenerate docs/
#   scripts/docs.sh --check  regenerate, validate, and fail if docs/ changed
#
# tfplugindocs builds the provider and asks `terraform providers schema -json`
# for its schema. Given no --tf-version it takes terraform from PATH and only
# downloads the latest release when none is found there, so this script refuses
# to run without one instead. The provider is installed from a local plugin
# directory (terraform init -plugin-dir), so no registry is contacted either.
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
case "${1:-}" in
"") ;;
--check) check=true ;;
*)
	echo "usage: $0 [--check]" >&2
	exit 2
	;;
esac

if ! command -v terraform >/dev/null 2>&1; then
	echo "docs: terraform is not on PATH; tfplugindocs needs it to read the provider schema and would otherwise try to download one. Install Terraform >= 1.11 and re-run." >&2
	exit 1
fi

scripts/tfenv.sh go tool tfplugindocs generate --provider-name compute --rendered-provider-name compute

if $check; then
	# validate logs every file it looks at; show that only when it fails.
	if ! out=$(scripts/tfenv.sh go tool tfplugindocs validate --provider-name compute 2>&1); then
		echo "$out" >&2
		echo "docs: tfplugindocs validate rejects docs/" >&2
		exit 1
	fi
	changed=$(git status --porcelain --untracked-files=all -- docs/)
	if [[ -n "$changed" ]]; then
		echo "docs: docs/ is out of date with the provider's schemas, templates/ or examples/:" >&2
		echo "$changed" >&2
		git --no-pager diff --stat -- docs/ >&2 || true
		echo "docs: run 'make docs' and commit docs/." >&2
		exit 1
	fi
	echo "docs: docs/ is up to date"
fi
