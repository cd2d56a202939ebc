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
#
# The action pages need Terraform 1.14 or later: older releases leave actions
# out of `providers schema -json`, and their pages would vanish. When the
# terraform on PATH is older, the script takes DOCS_TERRAFORM (a path), else
# unpacks terraform-1.15.gz from COMPUTE_MATRIX_BIN_DIR (default: shared/bin
# beside the repository, as .ci/run), and fails when it finds neither.
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

# version_ok BINARY: whether BINARY is Terraform 1.14 or later.
version_ok() {
	local out v
	# The whole output first: a reader that stops at the first match would
	# cut the binary's pipe, and pipefail would count its SIGPIPE.
	out=$(TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1 "$1" version 2>/dev/null) || true
	v=$(grep -oE '^Terraform v[0-9]+\.[0-9]+' <<<"$out" | head -n 1 | cut -c12-) || return 1
	[[ -n $v ]] && { ((${v%%.*} > 1)) || ((${v%%.*} == 1 && ${v#*.} >= 14)); }
}
if ! version_ok "$(command -v terraform)"; then
	bin=${DOCS_TERRAFORM:-}
	if [[ -z $bin ]]; then
		gz=${COMPUTE_MATRIX_BIN_DIR:-$(dirname "$PWD")/shared/bin}/terraform-1.15.gz
		if [[ -r $gz ]]; then
			tfdir=$(mktemp -d "${TMPDIR:-/tmp}/compute-docs-tf.XXXXXX")
			trap 'rm -rf "$tfdir"' EXIT
			gunzip -c "$gz" >"$tfdir/terraform" && chmod +x "$tfdir/terraform"
			bin=$tfdir/terraform
		fi
	fi
	if [[ -z $bin ]] || ! version_ok "$bin"; then
		echo "docs: the terraform on PATH is older than 1.14, which leaves the provider's actions out of its schema, so their pages would be dropped. Set DOCS_TERRAFORM to a Terraform >= 1.14 binary, or put terraform-1.15.gz in COMPUTE_MATRIX_BIN_DIR (now: ${COMPUTE_MATRIX_BIN_DIR:-$(dirname "$PWD")/shared/bin})." >&2
		exit 1
	fi
	echo "docs: using $("$bin" version 2>/dev/null | head -n 1) ($bin) for the schema: the terraform on PATH is older than 1.14" >&2
	# tfplugindocs runs whatever is named terraform on PATH, so a binary
	# named otherwise (terraform-1.15) gets that name in a directory of its
	# own; else the older one on PATH would silently drop the action pages.
	if [[ $(basename "$bin") != terraform ]]; then
		if [[ -z ${tfdir:-} ]]; then
			tfdir=$(mktemp -d "${TMPDIR:-/tmp}/compute-docs-tf.XXXXXX")
			trap 'rm -rf "$tfdir"' EXIT
		fi
		ln -sf "$(realpath "$bin")" "$tfdir/terraform"
		bin=$tfdir/terraform
	fi
	PATH=$(dirname "$bin"):$PATH
	export PATH
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
