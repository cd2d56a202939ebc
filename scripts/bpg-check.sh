#!/usr/bin/env bash
# Runs bpg/terraform-provider-proxmox, the Proxmox provider Terraform users
# rely on, through its everyday lifecycle against the Proxmox VE emulator
# (tools/emulator) and prints pass or fail per flow. It builds nothing of
# bpg's: name a binary you built (go build in a checkout of
# github.com/bpg/terraform-provider-proxmox). Not part of make test or CI.
#
#   scripts/bpg-check.sh /path/to/terraform-provider-proxmox [WORKDIR]
#
# Each flow's terraform output is kept in WORKDIR/FLOW.log and its
# Terraform log (TF_LOG=JSON, with bpg's requests and answers; it holds the
# API token) in WORKDIR/FLOW.json. With BPG_TRANSCRIPT=FILE the requests
# are written to FILE as the transcript TestBPGTranscript replays
# (internal/emulator/proxmox/testdata/bpg-transcript.jsonl): one JSON line
# per request with the flow, method, path, query, form body and status, the
# UPID a request started and a task's status when bpg saw it stopped; no
# header, so no token. Polls that only wait for time to pass (a task still
# running, a guest agent not up yet) are left out. Needs jq.
set -euo pipefail
lib_name=bpg-check
. "$(dirname "$0")/lib.sh"

bpg=${1:-}
[[ -n $bpg && -x $bpg ]] || fail "usage: $0 /path/to/terraform-provider-proxmox [WORKDIR]"
bpg=$(cd "$(dirname "$bpg")" && pwd)/$(basename "$bpg")
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/bpg-check.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
command -v terraform >/dev/null 2>&1 || fail "terraform is not on PATH"

cat >"$work/terraformrc" <<RC
provider_installation {
  dev_overrides { "bpg/proxmox" = "$(dirname "$bpg")" }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE=$work/terraformrc CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0
unset TF_PLUGIN_CACHE_DIR
# dev_overrides finds the binary by its registry name.
[[ $(basename "$bpg") == terraform-provider-proxmox ]] ||
	fail "the binary must be named terraform-provider-proxmox (dev_overrides looks for that name)"

(cd "$repo" && go build -o "$work/emulator" ./tools/emulator) || fail "building the emulator command"
"$work/emulator" -listen 127.0.0.1:0 >"$work/emulator.out" 2>"$work/emulator.err" &
emu=$!
trap 'kill "$emu" 2>/dev/null || true' EXIT
# Waited for as long as it runs, however busy the machine: an emulator that
# stopped is the failure.
until grep -q '^proxmox-token ' "$work/emulator.out" 2>/dev/null; do
	kill -0 "$emu" 2>/dev/null || fail "the emulator stopped: $(cat "$work/emulator.err")"
	sleep 0.1
done
endpoint=$(awk '$1 == "proxmox" { print $2 }' "$work/emulator.out")
token=$(awk '$1 == "proxmox-token" { print $2 }' "$work/emulator.out")
[[ -n $endpoint && -n $token ]] || fail "the emulator printed no proxmox endpoint and token"
export PROXMOX_VE_ENDPOINT=$endpoint PROXMOX_VE_API_TOKEN=$token PROXMOX_VE_INSECURE=true

provider='terraform {
  required_providers {
    proxmox = { source = "bpg/proxmox" }
  }
}
provider "proxmox" {}
'

# vm MEMORY TAGS DESCRIPTION: the cloned VM's configuration.
vm() {
	cat <<HCL
resource "proxmox_virtual_environment_vm" "web" {
  node_name   = "pve1"
  name        = "web-1"
  description = "$3"
  tags        = [$2]
  clone {
    vm_id = 9000
  }
  cpu {
    cores = 2
  }
  memory {
    dedicated = $1
  }
  agent {
    enabled = true
  }
  initialization {
    ip_config {
      ipv4 {
        address = "dhcp"
      }
    }
    user_account {
      username = "ubuntu"
      keys     = ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBmLt4SDYXh7n0cLJ5G1FqQm0GWm1RVz5s8cJ0Zxk3bq demo"]
    }
  }
}
HCL
}

declare -A result
order=(datasources clone second-plan in-place import destroy)

# run FLOW DIR COMMAND...: runs a terraform command in DIR, its output (and
# bpg's log) into WORKDIR/FLOW.log; fails as the command does.
run() {
	local flow=$1 dir=$2
	shift 2
	(cd "$dir" && TF_LOG=JSON TF_LOG_PATH="$work/$flow.json" "$@") >>"$work/$flow.log" 2>&1
}

# transcript FLOW: bpg's requests of FLOW as transcript lines.
transcript() {
	[[ -f $work/$1.json ]] || return 0
	jq -c -s --arg flow "$1" '
		map(select(.tf_http_op_type != null)) as $all
		| ($all | map(select(.tf_http_op_type == "response")) | INDEX(.tf_http_trans_id)) as $res
		| $all[] | select(.tf_http_op_type == "request")
		| $res[.tf_http_trans_id] as $r
		| ($r.tf_http_res_body | try fromjson catch null) as $body
		| (.tf_http_req_uri | sub("^/api2/json"; "") | split("?")) as $uri
		| {flow: $flow, method: .tf_http_req_method, path: $uri[0], query: ($uri[1] // ""),
		   body: (.tf_http_req_body // "" | gsub("(?<k>(^|&)(cipassword|password)=)[^&]*"; "\(.k)REDACTED")),
		   status: $r.tf_http_res_status_code}
		+ (if ($body.data | type) == "string" and ($body.data | startswith("UPID:")) then {upid: $body.data} else {} end)
		+ (if ($uri[0] | test("/tasks/[^/]+/status$")) then {task: $body.data.status} else {} end)
		| select((.task // "stopped") == "stopped")
		| select((.path | test("/agent/")) and .status != 200 | not)
	' "$work/$1.json"
}

mkdir -p "$work/ds" "$work/vm" "$work/import"
{
	echo "$provider"
	cat <<'HCL'
data "proxmox_virtual_environment_version" "v" {}
data "proxmox_virtual_environment_nodes" "all" {}
data "proxmox_virtual_environment_node" "pve1" {
  node_name = "pve1"
}
data "proxmox_virtual_environment_vms" "all" {}
data "proxmox_virtual_environment_vm" "template" {
  node_name = "pve1"
  vm_id     = 9000
}
output "version" { value = data.proxmox_virtual_environment_version.v.version }
output "nodes" { value = data.proxmox_virtual_environment_nodes.all.names }
output "vms" { value = length(data.proxmox_virtual_environment_vms.all.vms) }
HCL
} >"$work/ds/main.tf"
if run datasources "$work/ds" terraform apply -auto-approve; then result[datasources]=pass; else result[datasources]=fail; fi

{ echo "$provider"; vm 1024 '"web"' "first"; } >"$work/vm/main.tf"
if run clone "$work/vm" terraform apply -auto-approve; then result[clone]=pass; else result[clone]=fail; fi

result[second-plan]=fail
if [[ ${result[clone]} == pass ]] && run second-plan "$work/vm" terraform plan -detailed-exitcode; then
	result[second-plan]=pass
fi

{ echo "$provider"; vm 2048 '"web", "prod"' "second"; } >"$work/vm/main.tf"
result[in-place]=fail
if [[ ${result[clone]} == pass ]] && run in-place "$work/vm" terraform apply -auto-approve &&
	run in-place "$work/vm" terraform plan -detailed-exitcode &&
	grep -q 'update in-place\|0 to add, 1 to change, 0 to destroy' "$work/in-place.log"; then
	result[in-place]=pass
fi

# Import the VM the clone made into a state of its own.
vmid=$(cd "$work/vm" && terraform state show -no-color proxmox_virtual_environment_vm.web 2>/dev/null |
	awk '/^    vm_id / { print $3 }') || true
{ echo "$provider"; echo 'resource "proxmox_virtual_environment_vm" "imported" {
  node_name = "pve1"
}'; } >"$work/import/main.tf"
result[import]=fail
if [[ -n $vmid ]] && run import "$work/import" terraform import proxmox_virtual_environment_vm.imported "pve1/$vmid"; then
	# The whole output first: grep -q would cut terraform's pipe, and
	# pipefail would count its SIGPIPE.
	imported=$(cd "$work/import" && terraform state show -no-color proxmox_virtual_environment_vm.imported 2>&1) || true
	grep -qE "^ +vm_id += $vmid\$" <<<"$imported" && result[import]=pass
fi

# Destroy, then ask the emulator: only the template is left.
result[destroy]=fail
if [[ ${result[clone]} == pass ]] && run destroy "$work/vm" terraform destroy -auto-approve; then
	listed=$(curl -sfk -H "Authorization: PVEAPIToken=$token" "$endpoint/api2/json/cluster/resources?type=vm") || listed=""
	vms=$(grep -o '"vmid":[0-9]*' <<<"$listed" || true)
	[[ $vms == '"vmid":9000' ]] && result[destroy]=pass
fi

if [[ -n ${BPG_TRANSCRIPT:-} ]]; then
	for f in "${order[@]}"; do transcript "$f"; done >"$BPG_TRANSCRIPT"
fi

failed=0
for f in "${order[@]}"; do
	printf '%-12s %s\n' "$f" "${result[$f]}"
	[[ ${result[$f]} == pass ]] || failed=1
done
echo "logs in $work"
exit "$failed"
