#!/usr/bin/env bash
# The quick start, end to end, on this machine alone: builds the provider and
# the API emulator, starts the emulator on a free loopback port, and runs
# examples/quickstart through apply, a second plan that must be empty, output
# and destroy, with Terraform using the freshly built provider through
# dev_overrides (no terraform init, no registry). It never needs a real
# account: the token is the emulator's.
#
# Environment:
#   TERRAFORM        the CLI to drive (default: terraform, or tofu when only it is on PATH)
#   DEMO_LATENCY     added latency per emulated API request, e.g. 20ms (default: none)
#   DEMO_SERVERS     how many servers the quick start creates (default: 2)
#   DEMO_KEEP=1      keep the scratch directory for inspection
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
go build -ldflags "-X main.version=demo" -o "$scratch/bin/terraform-provider-compute" .
go build -o "$scratch/bin/compute-emulator" ./tools/emulator

step "starting the emulator on a free loopback port"
token=demo-token
emulator_args=(-listen 127.0.0.1:0 -token "$token")
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
hcloud_url=
for _ in $(seq 1 100); do
	hcloud_url=$(awk '$1 == "hcloud" { print $2; exit }' "$scratch/emulator.out")
	[[ -n "$hcloud_url" ]] && break
	if ! kill -0 "$emulator_pid" 2>/dev/null; then
		die "the emulator exited before announcing its address"
	fi
	sleep 0.1
done
[[ -n "$hcloud_url" ]] || die "the emulator announced no 'hcloud URL' line within 10s; its output: $(cat "$scratch/emulator.out")"
emulator_base=$(sed -E 's#^(https?://[^/]+).*#\1#' <<<"$hcloud_url")
echo "hcloud API emulated at $hcloud_url (pid $emulator_pid)"

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
export TF_VAR_hcloud_endpoint=$hcloud_url
export TF_VAR_servers=$servers
unset TF_PLUGIN_CACHE_DIR TF_WORKSPACE TF_DATA_DIR

color=()
[[ -t 1 ]] || color=(-no-color)

step "copying examples/quickstart to $scratch/work"
cp -R "$root/examples/quickstart" "$scratch/work"
rm -rf "$scratch/work/.terraform" "$scratch/work"/terraform.tfstate* "$scratch/work/.terraform.lock.hcl"
cd "$scratch/work"

step "TF_LOG=DEBUG $tf apply -auto-approve (the log goes to $scratch/apply.log)"
curl -fsS --max-time 5 -X DELETE "$emulator_base/_emulator/stats" >/dev/null || die "could not reset $emulator_base/_emulator/stats"
TF_LOG=DEBUG TF_LOG_PATH="$scratch/apply.log" "$tf" apply -auto-approve -input=false "${color[@]}"
# What the log promises: a line per API request (method, route template,
# status, duration, attempt, request id), and never the token.
grep 'API request:' "$scratch/apply.log" >"$scratch/requests.log" || die "the DEBUG log of the apply holds no API request line"
for field in method= route= status= duration= attempt= request_id=; do
	grep -q -- "$field" "$scratch/requests.log" || die "the API request lines of the DEBUG log hold no $field"
done
if grep -qF -- "$token" "$scratch/apply.log"; then
	die "the DEBUG log of the apply shows the API token"
fi
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

step "$tf plan -detailed-exitcode (a second plan must find nothing to change)"
curl -fsS --max-time 5 -X DELETE "$emulator_base/_emulator/stats" >/dev/null || die "could not reset $emulator_base/_emulator/stats"
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

step "emulator request counts since the second plan: plan, output and destroy ($emulator_base/_emulator/stats)"
stats=$(curl -fsS --max-time 5 "$emulator_base/_emulator/stats") || die "could not read $emulator_base/_emulator/stats"
if command -v jq >/dev/null 2>&1; then
	jq . <<<"$stats"
else
	echo "$stats"
fi

step "done: the quick start applied, planned clean and destroyed in $((SECONDS - started))s"
