#!/usr/bin/env bash
# The quick start, end to end, on this machine alone: builds the provider and
# the API emulator, starts the emulator on a free loopback port, and runs
# examples/quickstart through apply, a second plan that must be empty, output
# and destroy, with Terraform using the freshly built provider through
# dev_overrides (no terraform init, no registry). Besides the cloud servers it
# bootstraps one rented dedicated server of the emulated Robot webservice:
# rescue, install over the emulated SSH, reboot, first boot; and clones one VM
# on the emulated Proxmox VE cluster. It never needs a real account: the
# tokens, the Robot user, the SSH key, the first-boot binary's https server
# and PVE's certificate are the emulator's, all on loopback.
#
# Environment:
#   TERRAFORM        the CLI to drive (default: terraform, or tofu when only it is on PATH)
#   DEMO_LATENCY     added latency per emulated API request, e.g. 20ms (default: none)
#   DEMO_SERVERS     how many servers the quick start creates (default: 2)
#   DEMO_KEEP=1      keep the scratch directory for inspection
#   TEST_TAGS        build tags of the emulator (default testbackends: it also
#                    serves the backends kept in the tests, which the
#                    provider built here, as released, does not offer)
#
# Whatever happens (success, failure, Ctrl-C) the emulator is stopped and the
# scratch directory removed, unless DEMO_KEEP=1.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS

current_step="checking the environment"
step() {
	current_step=$*
	printf '\n==> %s\n' "$*"
}
die() {
	printf 'demo: %s\n' "$*" >&2
	exit 1
}

tf=${TERRAFORM:-}
if [[ -z "$tf" ]]; then
	if command -v terraform >/dev/null 2>&1; then
		tf=terraform
	elif command -v tofu >/dev/null 2>&1; then
		tf=tofu
	else
		die "neither terraform nor tofu is on PATH; install Terraform >= 1.11 (or OpenTofu) and re-run"
	fi
fi
command -v "$tf" >/dev/null 2>&1 || die "TERRAFORM=$tf is not a command on PATH; set TERRAFORM to terraform, tofu or the path of one, or unset it"
command -v go >/dev/null 2>&1 || die "go is not on PATH; install Go 1.26.8 or later (the version go.mod requires) and put its bin directory, such as /usr/local/go/bin, on PATH"
command -v curl >/dev/null 2>&1 || die "curl is not on PATH; it reads the emulator's request counts (apt-get install curl)"

# Checked before anything is built, so a typo costs no build and the message
# names the variable rather than the emulator's flag.
latency=${DEMO_LATENCY:-}
if [[ -n "$latency" && ! "$latency" =~ ^(0|([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+)$ ]]; then
	die "DEMO_LATENCY=$latency is not a duration; use a number with a unit, such as 20ms or 1.5s, or unset it"
fi
servers=${DEMO_SERVERS:-2}
if [[ ! "$servers" =~ ^[0-9]+$ ]]; then
	die "DEMO_SERVERS=$servers is not a whole number; use one such as 10, or unset it for 2"
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/compute-demo.XXXXXX")
emulator_pid=
cleanup() {
	status=$?
	if [[ -n "$emulator_pid" ]] && kill -0 "$emulator_pid" 2>/dev/null; then
		kill -TERM "$emulator_pid" 2>/dev/null || true
		wait "$emulator_pid" 2>/dev/null || true
	fi
	if [[ "${DEMO_KEEP:-}" == 1 ]]; then
		echo "demo: scratch directory kept at $scratch"
	fi
	if [[ $status -ne 0 ]]; then
		if [[ -s "$scratch/emulator.err" ]]; then
			echo "demo: the emulator's error output:" >&2
			tail -n 20 "$scratch/emulator.err" >&2
		fi
		echo "demo: FAILED while $current_step, after $((SECONDS - started))s (exit $status)" >&2
		if [[ "${DEMO_KEEP:-}" != 1 ]]; then
			echo "demo: run again with DEMO_KEEP=1 to keep the scratch directory (Terraform state and emulator output)" >&2
		fi
	fi
	if [[ "${DEMO_KEEP:-}" != 1 ]]; then
		rm -rf "$scratch"
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "building the provider and the emulator into $scratch/bin"
mkdir -p "$scratch/bin"
go build -ldflags "-X main.build=demo" -o "$scratch/bin/terraform-provider-compute" .
go build -tags "${TEST_TAGS-testbackends}" -o "$scratch/bin/compute-emulator" ./tools/emulator

step "starting the emulator on a free loopback port"
token=demo-token
robot_user=demo-user
robot_password=demo-password
ssh_key_file="$scratch/robot_ed25519"
emulator_args=(-listen 127.0.0.1:0 -token "$token" -robot-user "$robot_user" -robot-password "$robot_password" -robot-ssh-key-out "$ssh_key_file")
if [[ -n "$latency" ]]; then
	emulator_args+=(-latency "$latency")
fi
# A session of its own keeps Ctrl-C from reaching the emulator: Terraform
# then stops gracefully against a live API, and cleanup stops the emulator
# afterwards. A background job here never leads a process group, so setsid
# does not fork and $! is the emulator itself.
detach=()
if command -v setsid >/dev/null 2>&1; then
	detach=(setsid)
fi
"${detach[@]}" "$scratch/bin/compute-emulator" "${emulator_args[@]}" >"$scratch/emulator.out" 2>"$scratch/emulator.err" &
emulator_pid=$!
# The first-boot line comes last, once every other line is out.
announced() { awk -v name="$1" -v field="$2" '$1 == name { print $field; exit }' "$scratch/emulator.out"; }
for _ in $(seq 1 100); do
	[[ -n "$(announced first-boot 2)" ]] && break
	if ! kill -0 "$emulator_pid" 2>/dev/null; then
		die "the emulator exited before announcing its address"
	fi
	sleep 0.1
done
[[ -n "$(announced first-boot 2)" ]] || die "the emulator announced no 'first-boot URL SHA256' line within 10s; its output: $(cat "$scratch/emulator.out")"
hcloud_url=$(announced hcloud 2)
robot_url=$(announced robot 2)
robot_ssh_port=$(announced robot-ssh 2)
ssh_key=$(announced robot-ssh-key 2)
first_boot_url=$(announced first-boot 2)
first_boot_sha256=$(announced first-boot 3)
emulator_base=$(sed -E 's#^(https?://[^/]+).*#\1#' <<<"$hcloud_url")
echo "hcloud API emulated at $hcloud_url (pid $emulator_pid)"
echo "Robot webservice emulated at $robot_url, its servers' SSH on port $robot_ssh_port, SSH key $ssh_key in $ssh_key_file"
echo "first-boot binary served at $first_boot_url (sha256 $first_boot_sha256)"
pve_url=$(announced proxmox 2)
pve_fingerprint=$(announced proxmox 3)
pve_token=$(announced proxmox-token 2)
[[ -n "$pve_url" && -n "$pve_fingerprint" && "$pve_token" == *=* ]] || die "the emulator announced no 'proxmox URL FINGERPRINT' and 'proxmox-token TOKEN' lines; its output: $(cat "$scratch/emulator.out")"
# The token's secret half, which no log or state may hold.
pve_secret=${pve_token#*=}
echo "Proxmox VE API emulated at $pve_url, its certificate's SHA-256 $pve_fingerprint (the account's tls_fingerprint)"
# A backend registered beside the shipped ones announces "NAME URL" and
# "NAME-testacc ..."; the quick start does not use them.
awk '$1 ~ /-testacc$/ { sub(/-testacc$/, "", $1); print $1 }' "$scratch/emulator.out" | while read -r name; do
	echo "$name API emulated at $(announced "$name" 2) (a backend kept in the tests, for make testacc-emulator)"
done
# The first rented server, unnamed as a newly rented one is.
machine_id=$(curl -fsS --max-time 5 "$emulator_base/_emulator/robot/servers" | grep -o '"server_number":[0-9]*' | head -n 1 | cut -d: -f2) ||
	die "could not read the rented servers from $emulator_base/_emulator/robot/servers"
[[ -n "$machine_id" ]] || die "the Robot emulator rents no server to bootstrap"
echo "the quick start bootstraps Robot server $machine_id"

step "writing a Terraform CLI configuration that uses the built provider (dev_overrides)"
cat >"$scratch/terraformrc" <<HCL
provider_installation {
  dev_overrides {
    "seedcompute/compute" = "$scratch/bin"
  }
  direct {}
}
HCL
cat "$scratch/terraformrc"
export TF_CLI_CONFIG_FILE="$scratch/terraformrc"
export CHECKPOINT_DISABLE=1
export TF_IN_AUTOMATION=1
export TF_INPUT=0
export HCLOUD_TOKEN=$token
export ROBOT_USER=$robot_user ROBOT_PASSWORD=$robot_password
export PROXMOX_API_TOKEN=$pve_token
# The secret file's content: fresh each run, so finding it anywhere but on the
# installed disk proves a leak.
host_secret="quickstart-secret-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export QUICKSTART_HOST_TOKEN=$host_secret
export TF_VAR_hcloud_endpoint=$hcloud_url
export TF_VAR_servers=$servers
export TF_VAR_robot="{
  machine_id = \"$machine_id\", endpoint = \"$robot_url\", ssh_port = $robot_ssh_port,
  ssh_key = \"$ssh_key\", ssh_private_key = \"file://$ssh_key_file\",
  first_boot = { url = \"$first_boot_url\", sha256 = \"$first_boot_sha256\" }
}"
export TF_VAR_proxmox="{ endpoint = \"$pve_url\", tls_fingerprint = \"$pve_fingerprint\" }"
unset TF_PLUGIN_CACHE_DIR TF_WORKSPACE TF_DATA_DIR

color=()
[[ -t 1 ]] || color=(-no-color)

# reset_stats sets every emulator's request counts back to zero.
reset_stats() {
	local path
	for path in /_emulator/stats /_emulator/robot/stats /_emulator/proxmox/stats; do
		curl -fsS --max-time 5 -X DELETE "$emulator_base$path" >/dev/null || die "could not reset $emulator_base$path"
	done
}

# check_bootstrap runs after the apply: the host is ready, the secret file's
# content went over SSH stdin and is nowhere else (state, the apply's output
# and DEBUG log, the command lines and env requests the machines recorded),
# and it says what the bootstrap cost.
check_bootstrap() {
	local host commands env_requests robot_stats took key_line
	step "checking the dedicated host: ready, and its secret file's content nowhere but on its disk"
	host=$("$tf" output -json host) || die "the quick start has no output host"
	grep -qF '"phase":"ready"' <<<"$host" || die "the dedicated host is not ready after apply: $host"
	grep -qE '"known_hosts":"[0-9.]+ ssh-ed25519 [A-Za-z0-9+/=]+"' <<<"$host" || die "the dedicated host has no known_hosts line: $host"
	commands=$(curl -fsS --max-time 5 "$emulator_base/_emulator/ssh/commands?machine=$machine_id") || die "could not read the SSH commands the machine received"
	env_requests=$(curl -fsS --max-time 5 "$emulator_base/_emulator/ssh/env") || die "could not read the SSH env requests"
	# The private key's body must not leak either; its second line is a
	# stretch of base64 no other text holds.
	key_line=$(sed -n 2p "$ssh_key_file")
	for secret in "$host_secret" "$key_line"; do
		if grep -qF -- "$secret" terraform.tfstate* "$scratch/apply.out" "$scratch/apply.log"; then
			die "a secret (the host's file content or the SSH private key) is in the state, the apply's output or its DEBUG log"
		fi
		if grep -qF -- "$secret" <<<"$commands$env_requests"; then
			die "a secret (the host's file content or the SSH private key) is in the commands or env requests the machine received"
		fi
	done
	robot_stats=$(curl -fsS --max-time 5 "$emulator_base/_emulator/robot/stats") || die "could not read $emulator_base/_emulator/robot/stats"
	took=$(grep -o 'compute_bootstrap_host.db\[0\]: Creation complete after [0-9a-z]*' "$scratch/apply.out" | awk '{ print $NF }')
	echo
	echo "the dedicated host is ready: $host"
	echo "its bootstrap took ${took:-?} of the apply (claim, rescue, install, reboot, first boot); by phase, from the log's INFO lines:"
	# Each phase runs from its "bootstrap phase" line to the next one's.
	grep 'bootstrap phase:' "$scratch/apply.log" | grep -F '@module=compute ' | awk '
		{ split(substr($1, 12, 12), t, ":"); at = t[1] * 3600 + t[2] * 60 + t[3]
		  if (match($0, /phase=[a-z]+/)) { p = substr($0, RSTART + 6, RLENGTH - 6) }
		  if (p != last) { n++; name[n] = p; start[n] = at; last = p } }
		END { for (i = 1; i < n; i++) printf "  %-12s %.1fs\n", name[i], start[i + 1] - start[i]
		      if (n > 0) printf "  %-12s reached\n", name[n] }'
	if command -v jq >/dev/null 2>&1; then
		# Delivered over stdin: some command consumed exactly the secret's bytes.
		jq -e --argjson n "${#host_secret}" 'any(.[]; .stdin_bytes == $n and (.line | test("^umask 077 && mkdir -p /root/compute/files && cat > ")))' <<<"$commands" >/dev/null ||
			die "no command of the machine received the secret file's ${#host_secret} bytes on stdin; it was not delivered as the design says"
		echo "the secret file's ${#host_secret} bytes went over SSH stdin, and are in no state, log, output or command line"
		echo "it cost $(jq '[.[]] | add // 0' <<<"$robot_stats") Robot request(s) by route: $(jq -c . <<<"$robot_stats")"
		echo "and $(jq length <<<"$commands") SSH command(s): $(jq -c '[.[] | .line | split(" ")[0]] | group_by(.) | map({(.[0]): length}) | add' <<<"$commands")"
	else
		echo "the secret file's content is in no state, log, output or command line"
		echo "it cost these Robot requests by route: $robot_stats"
		echo "and $(grep -o '"line":' <<<"$commands" | wc -l) SSH command(s)"
	fi
}

# check_vm runs after the apply: the Proxmox VM runs with the address its
# guest agent reports, and it says what the clone cost.
check_vm() {
	local vm pve_stats took
	step "checking the Proxmox VM: cloned from the template, started, its address from the guest agent"
	vm=$("$tf" output -json vm) || die "the quick start has no output vm"
	grep -qF '"state":"running"' <<<"$vm" || die "the Proxmox VM is not running after apply: $vm"
	grep -qE '"ipv4":"[0-9.]+"' <<<"$vm" || die "the Proxmox VM has no IPv4 address after apply: $vm"
	pve_stats=$(curl -fsS --max-time 5 "$emulator_base/_emulator/proxmox/stats") || die "could not read $emulator_base/_emulator/proxmox/stats"
	took=$(grep -o 'compute_instance.vm\[0\]: Creation complete after [0-9a-z]*' "$scratch/apply.out" | awk '{ print $NF }')
	echo
	echo "the Proxmox VM runs: $vm"
	echo "its create took ${took:-?} of the apply (clone, configure, start, the agent's address)"
	if command -v jq >/dev/null 2>&1; then
		echo "the apply cost $(jq '[.[]] | add // 0' <<<"$pve_stats") Proxmox request(s), $(jq '.["POST /nodes/{node}/qemu/{vmid}/clone"] // 0' <<<"$pve_stats") of them clones, by route: $(jq -c . <<<"$pve_stats")"
	else
		echo "the apply's Proxmox requests by route: $pve_stats"
	fi
}

step "copying examples/quickstart to $scratch/work"
cp -R "$root/examples/quickstart" "$scratch/work"
rm -rf "$scratch/work/.terraform" "$scratch/work"/terraform.tfstate* "$scratch/work/.terraform.lock.hcl"
cd "$scratch/work"

step "TF_LOG=DEBUG $tf apply -auto-approve (the log goes to $scratch/apply.log)"
reset_stats
apply_started=$(date +%s.%N)
TF_LOG=DEBUG TF_LOG_PATH="$scratch/apply.log" "$tf" apply -auto-approve -input=false "${color[@]}" | tee "$scratch/apply.out"
apply_seconds=$(awk -v a="$apply_started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
# What the log promises: a line per API request (method, route template,
# status, duration, attempt, request id), and never the token.
grep 'API request:' "$scratch/apply.log" >"$scratch/requests.log" || die "the DEBUG log of the apply holds no API request line"
for field in method= route= status= duration= attempt= request_id=; do
	grep -q -- "$field" "$scratch/requests.log" || die "the API request lines of the DEBUG log hold no $field"
done
for secret in "$token" "$robot_password" "$pve_secret"; do
	if grep -qF -- "$secret" "$scratch/apply.log"; then
		die "the DEBUG log of the apply shows a credential of the emulated accounts"
	fi
done
echo "the DEBUG log holds $(wc -l <"$scratch/requests.log") API request line(s) and not the token; the first create's:"
first_create=$(grep -m 1 'method=POST' "$scratch/requests.log" || true)
sed -E 's/^.*API request: //' <<<"$first_create" | tr ' ' '\n' | grep -E '^(method|route|status|duration|attempt|request_id)=' | sort | tr '\n' ' '
echo
apply_stats=$(curl -fsS --max-time 5 "$emulator_base/_emulator/stats") || die "could not read $emulator_base/_emulator/stats"
if command -v jq >/dev/null 2>&1; then
	# What the creates cost beyond their own POST, per server: the look-up by
	# key, the reads while waiting, and any adoption's write.
	jq -r --argjson n "$TF_VAR_servers" '
		([.[]] | add // 0) as $all | (.["POST /servers"] // 0) as $posts
		| "this apply of \($n) server(s) cost \($all) API request(s), \($posts) of them creates: \(if $n > 0 then (($all - $posts) * 100 / $n | round) / 100 else 0 end) per server beyond its create (catalog and account checks included): \(tojson)"' <<<"$apply_stats"
else
	echo "this apply's API requests: $apply_stats"
fi
echo "the apply took ${apply_seconds}s of wall time"
check_bootstrap
check_vm

step "$tf plan -detailed-exitcode (a second plan must find nothing to change)"
reset_stats
set +e
"$tf" plan -detailed-exitcode -input=false "${color[@]}"
plan_status=$?
set -e
plan_stats=$(curl -fsS --max-time 5 "$emulator_base/_emulator/stats") || die "could not read $emulator_base/_emulator/stats"
if command -v jq >/dev/null 2>&1; then
	echo "this plan of $TF_VAR_servers server(s) cost $(jq '[.[]] | add // 0' <<<"$plan_stats") API request(s): $(jq -c . <<<"$plan_stats")"
else
	echo "this plan's API requests: $plan_stats"
fi
echo "and of the dedicated host, Robot requests: $(curl -fsS --max-time 5 "$emulator_base/_emulator/robot/stats")"
echo "and of the Proxmox VM, PVE requests: $(curl -fsS --max-time 5 "$emulator_base/_emulator/proxmox/stats")"
case $plan_status in
0) echo "no changes: the applied infrastructure matches the configuration" ;;
2) die "the second plan wants changes right after apply (shown above); the provider does not converge" ;;
*) die "the second plan failed (exit $plan_status); Terraform's output above says why" ;;
esac

step "$tf output"
"$tf" output "${color[@]}"

step "$tf destroy -auto-approve"
"$tf" destroy -auto-approve -input=false "${color[@]}"

left=$("$tf" state list)
[[ -z "$left" ]] || die "state still lists resources after destroy: $left"
if command -v jq >/dev/null 2>&1; then
	servers=$(curl -fsS --max-time 5 -H "Authorization: Bearer $token" "$hcloud_url/servers" | jq '.servers | length')
	[[ "$servers" == 0 ]] || die "the emulator still holds $servers server(s) after destroy"
	echo "the emulator holds no servers"
fi
# Destroy releases the claim and keeps the rental: the server is there, its
# name back to what it was before the claim (unnamed).
robot_servers=$(curl -fsS --max-time 5 "$emulator_base/_emulator/robot/servers") || die "could not read $emulator_base/_emulator/robot/servers"
tr '}' '\n' <<<"$robot_servers" | grep "\"server_number\":$machine_id," | grep -qF '"server_name":""' ||
	die "Robot server $machine_id is not unnamed again after destroy: $robot_servers"
echo "Robot server $machine_id is released: still rented, unnamed again"
# Destroy removes the VM; only the template stays.
pve_vms=$(curl -fsS --max-time 5 "$emulator_base/_emulator/proxmox/vms") || die "could not read $emulator_base/_emulator/proxmox/vms"
if command -v jq >/dev/null 2>&1; then
	pve_left=$(jq -c '[.[] | select(.template | not) | .vmid]' <<<"$pve_vms")
	[[ "$pve_left" == "[]" ]] || die "the Proxmox emulator still holds VM(s) $pve_left after destroy"
else
	grep -q '"template":false' <<<"$pve_vms" && die "the Proxmox emulator still holds a VM after destroy: $pve_vms"
fi
echo "the Proxmox cluster holds no VM, only its template"

step "emulator request counts since the second plan: plan, output and destroy ($emulator_base/_emulator/stats, /_emulator/proxmox/stats)"
stats=$(curl -fsS --max-time 5 "$emulator_base/_emulator/stats") || die "could not read $emulator_base/_emulator/stats"
pve_stats=$(curl -fsS --max-time 5 "$emulator_base/_emulator/proxmox/stats") || die "could not read $emulator_base/_emulator/proxmox/stats"
if command -v jq >/dev/null 2>&1; then
	jq . <<<"$stats"
	echo "Proxmox VE:"
	jq . <<<"$pve_stats"
else
	echo "$stats"
	echo "Proxmox VE: $pve_stats"
fi

step "done: the quick start applied, planned clean and destroyed in $((SECONDS - started))s"
