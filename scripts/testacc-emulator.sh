#!/usr/bin/env bash
# make testacc against the standalone emulator: the same command a user
# starts with `make emulator`, as its own process on a free loopback port.
# Builds it, starts it with fresh credentials, waits until its APIs answer,
# points every backend's variables at it (Hetzner Cloud, Hetzner Robot and
# its SSH farm, Proxmox VE, and each backend registered beside them, whose
# variables its "NAME-testacc" line announces), runs `make testacc` (the
# lifecycle tests of each backend by default: TESTACC_RUN) and `make sweep`
# against it, checks through its APIs that nothing was left behind and that
# the sweep took only its own, and stops it. Everything is built with
# TEST_TAGS (default testbackends), which registers the backends kept in the
# tests in both the emulator and the provider.
#
# Environment:
#   TESTACC_RUN   the tests to run (default: the lifecycle tests that run
#                 against any target)
#   TESTACC_PKGS  the packages they are in
#   TEST_TAGS     the build tags (default testbackends; "" for the shipped
#                 backends alone)
#
# Whatever happens, the emulator is stopped and the scratch directory removed.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

die() {
	printf 'testacc-emulator: %s\n' "$*" >&2
	exit 1
}
for tool in curl jq; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is not on PATH; it reads the emulator's answers (apt-get install curl jq)"
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/compute-testacc.XXXXXX")
emulator_pid=
cleanup() {
	status=$?
	if [[ -n "$emulator_pid" ]] && kill -0 "$emulator_pid" 2>/dev/null; then
		kill -TERM "$emulator_pid" 2>/dev/null || true
		wait "$emulator_pid" 2>/dev/null || true
	fi
	if [[ $status -ne 0 && -s "$scratch/emulator.err" ]]; then
		echo "testacc-emulator: the emulator's error output:" >&2
		tail -n 20 "$scratch/emulator.err" >&2
	fi
	rm -rf "$scratch"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tags=${TEST_TAGS-testbackends}
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-tags=$tags"
go build -o "$scratch/compute-emulator" ./tools/emulator
# Credentials of this run only: the tests read them as HCLOUD_TOKEN,
# HETZNER_ROBOT_USER/_PASSWORD and PROXMOX_VE_API_TOKEN.
fresh() { od -An -N8 -tx1 /dev/urandom | tr -d ' \n'; }
token="testacc-$(fresh)"
robot_user="testacc-$(fresh)"
robot_password="testacc-$(fresh)"
pve_token="root@pam!testacc=$(fresh)"
"$scratch/compute-emulator" -listen 127.0.0.1:0 -token "$token" -robot-user "$robot_user" -robot-password "$robot_password" \
	-robot-ssh-key-out "$scratch/robot_key" -proxmox-token "$pve_token" >"$scratch/emulator.out" 2>"$scratch/emulator.err" &
emulator_pid=$!

# The emulator prints its lines once its ports are open ("first-boot" is
# the last); then each API must answer an authenticated request, so a broken
# credential or route fails here, not in a test. It is waited for as long as
# it runs, however busy the machine: an emulator that exited is the failure.
until grep -q '^first-boot ' "$scratch/emulator.out"; do
	kill -0 "$emulator_pid" 2>/dev/null || die "the emulator exited before announcing its addresses"
	sleep 0.1
done
line() { awk -v k="$1" -v f="$2" '$1 == k { print $f; exit }' "$scratch/emulator.out"; }
endpoint=$(line hcloud 2)
robot=$(line robot 2)
robot_ssh_port=$(line robot-ssh 2)
robot_key_fp=$(line robot-ssh-key 2)
pve=$(line proxmox 2)
pve_fp=$(line proxmox 3)
for v in endpoint robot robot_ssh_port robot_key_fp pve pve_fp; do
	[[ -n "${!v}" ]] || die "the emulator announced first-boot but not every line (no $v): $(tr '\n' ';' <"$scratch/emulator.out")"
done
control=${endpoint%/v1}/_emulator
curl -fsS --max-time 5 -H "Authorization: Bearer $token" "$endpoint/locations" >/dev/null ||
	die "the emulator at $endpoint does not answer an authenticated request"
curl -fsS --max-time 5 -u "$robot_user:$robot_password" "$robot/server" >/dev/null ||
	die "the Robot webservice at $robot does not answer an authenticated request"
# -k: the emulator's certificate is made at start; the tests pin it.
curl -fsSk --max-time 5 -H "Authorization: PVEAPIToken=$pve_token" "$pve/api2/json/nodes" >/dev/null ||
	die "the Proxmox VE API at $pve does not answer an authenticated request"
# The server the Robot tests may claim: the first the account rents.
robot_server=$(curl -fsS --max-time 5 "$control/robot/servers" | jq -r '.[0].server_number')
[[ "$robot_server" =~ ^[0-9]+$ ]] || die "the Robot account rents no server to test on"
echo "testacc-emulator: the standalone emulator serves $endpoint, $robot and $pve (pid $emulator_pid)"

# Every backend's variables, as README.md lists them.
vars=(
	COMPUTE_TEST_ENDPOINT="$endpoint" HCLOUD_TOKEN="$token"
	HETZNER_ROBOT_USER="$robot_user" HETZNER_ROBOT_PASSWORD="$robot_password" COMPUTE_TEST_ROBOT_SERVER="$robot_server"
	COMPUTE_TEST_ROBOT_SSH_KEY="$robot_key_fp" COMPUTE_TEST_ROBOT_SSH_KEY_FILE="$scratch/robot_key"
	COMPUTE_TEST_ROBOT_ENDPOINT="$robot" COMPUTE_TEST_ROBOT_SSH_PORT="$robot_ssh_port"
	PROXMOX_VE_ENDPOINT="$pve" PROXMOX_VE_API_TOKEN="$pve_token" COMPUTE_TEST_PROXMOX_TEMPLATE=ubuntu-24.04-cloud
	COMPUTE_TEST_PROXMOX_TLS_FINGERPRINT="$pve_fp"
)
# Each registered backend announces its API and its variables on one line,
# "NAME-testacc VAR=VALUE ...": its name, for the checks below, and its
# variables join the others.
registered=$(awk '$1 ~ /-testacc$/ { sub(/-testacc$/, "", $1); print $1 }' "$scratch/emulator.out" | xargs)
read -r -a announced <<<"$(awk '$1 ~ /-testacc$/ { $1 = ""; print }' "$scratch/emulator.out" | xargs)"
vars+=("${announced[@]}")

# The lifecycle tests run against any target; the rest of the packages'
# tests need the in-process emulator, which make test already ran.
run=${TESTACC_RUN:-'^(TestInstanceLifecycle|TestAccountCreateReadImport|TestOffersAnyTarget|TestProxmoxInstanceLifecycle|TestRobotBootstrapLifecycle|TestRegisteredBackendLifecycle)$'}
pkgs=${TESTACC_PKGS:-./internal/account ./internal/instance ./internal/offers ./internal/bootstrap}
tests_started=$SECONDS
make --no-print-directory testacc "${vars[@]}" TESTACC_RUN="$run" TESTACC_PKGS="$pkgs"
tests_took=$((SECONDS - tests_started))

api() { curl -fsS --max-time 5 -H "Authorization: Bearer $token" "$@"; }
robot_api() { curl -fsS --max-time 5 -u "$robot_user:$robot_password" "$@"; }
pve_api() { curl -fsSk --max-time 5 -H "Authorization: PVEAPIToken=$pve_token" "$@"; }
# The servers not being deleted, by name.
names() { api "$endpoint/servers" | jq -r '[.servers[] | select(.status != "deleting") | .name] | sort | join(" ")'; }
# Robot's servers, "NUMBER=NAME"; a claimed server's name carries ~cm~.
robot_names() { curl -fsS --max-time 5 "$control/robot/servers" | jq -r '[.[] | "\(.server_number)=\(.server_name)"] | join(" ")'; }
cancelled() { robot_api "$robot/server/$1/cancellation" | jq -r '.cancellation.cancelled'; }
# Proxmox VE's VMs but the templates and those being destroyed, "VMID=NAME".
pve_vms() {
	curl -fsS --max-time 5 "$control/proxmox/vms" |
		jq -r '[.[] | select((.template | not) and .lock != "destroyed") | "\(.vmid)=\(.config.name)"] | join(" ")'
}
requests() { curl -fsS --max-time 5 "$control/$1" | jq --arg r "$2" '.[$r] // 0'; }

# Every test destroyed what it made, and reached this emulator, not one of
# its own: each backend counts the creates it answered.
left=$(names)
[[ -z "$left" ]] || die "servers left on the emulator after the tests: $left"
creates=$(requests stats "POST /servers")
[[ "$creates" -gt 0 ]] || die "no test created a server on the standalone emulator; did the tests pick another target?"
left=$(robot_names)
[[ "$left" != *"~cm~"* ]] || die "Robot servers still claimed after the tests: $left"
[[ "$(cancelled "$robot_server")" == false ]] || die "the tests cancelled Robot server $robot_server, which they may only claim and release"
robot_installs=$(requests robot/stats "POST /boot/{id}/rescue")
[[ "$robot_installs" -gt 0 ]] || die "no test activated a rescue system on the Robot emulator; did the tests pick another target?"
left=$(pve_vms)
[[ -z "$left" ]] || die "Proxmox VMs left after the tests: $left"
clones=$(requests proxmox/stats "POST /nodes/{node}/qemu/{vmid}/clone")
[[ "$clones" -gt 0 ]] || die "no test cloned a VM on the Proxmox emulator; did the tests pick another target?"
# A registered emulator's control API is /_emulator/NAME; the lifecycle
# test's CheckDestroy has asked its API that nothing is left.
for name in $registered; do
	served=$(curl -fsS --max-time 5 "$control/$name/stats" | jq '[.[]] | add // 0')
	[[ "$served" -gt 0 ]] || die "no test reached the $name emulator; did the tests pick another target?"
done

# The sweep then meets what an interrupted run leaves: a managed machine
# with the test prefix and the test mark, which must go, beside a prefixed
# one made by hand, a prefixed managed one of a user's configuration (no
# test mark), one whose mark was set by hand, and a managed one of someone's
# configuration, which must all stay. The test mark is the label on Hetzner
# Cloud, the server the tests may claim on Robot (whose claim a sweep
# releases, never cancelling the rental), the tests' VMID range on Proxmox.
seed() {
	api -o /dev/null -H 'Content-Type: application/json' \
		-d "{\"name\":\"$1\",\"server_type\":\"cx22\",\"image\":\"ubuntu-24.04\",\"labels\":$2}" "$endpoint/servers"
}
managed='{"compute.seedcompute.io/managed":"true"}'
left_by_a_test='{"compute.seedcompute.io/managed":"true","tfacc":"sweepable"}'
seed tfacc-left-behind "$left_by_a_test"
seed tfacc-made-by-hand '{"tfacc":"sweepable"}'
seed tfacc-my-production-db "$managed"
seed tfacc-marked-by-hand '{"compute.seedcompute.io/managed":"true","tfacc":"mine"}'
seed web-1 "$managed"
# A claim as the provider writes it: NAME~cm~CLAIM~FINGERPRINT~e (e: it
# was unnamed before, which a release restores).
claim="~cm~$(fresh)$(fresh)~$(fresh | cut -c1-8)~e"
other=$(curl -fsS --max-time 5 -H 'Content-Type: application/json' -d '{"product":"AX42"}' "$control/robot/servers" | jq -r '.server_number')
[[ "$other" =~ ^[0-9]+$ ]] || die "the Robot emulator rented no second server"
robot_api -o /dev/null --data-urlencode "server_name=tfacc-left-behind$claim" "$robot/server/$robot_server"
robot_api -o /dev/null --data-urlencode "server_name=tfacc-my-production-db$claim" "$robot/server/$other"
pve_seed() {
	curl -fsS --max-time 5 -o /dev/null -H 'Content-Type: application/json' \
		-d "{\"VMID\":$1,\"Name\":\"$2\",\"Node\":\"pve1\",\"Tags\":\"$3\"}" "$control/proxmox/vms"
}
pve_seed 990001 tfacc-left-behind compute
pve_seed 990002 tfacc-made-by-hand ""
pve_seed 100001 tfacc-my-production-db compute
pve_seed 990003 web-1 compute
make --no-print-directory sweep "${vars[@]}" >"$scratch/sweep.out" 2>&1 ||
	{ cat "$scratch/sweep.out" >&2; die "make sweep failed"; }
grep -E 'swept ' "$scratch/sweep.out" || true
want="tfacc-made-by-hand tfacc-marked-by-hand tfacc-my-production-db web-1"
left=$(names)
[[ "$left" == "$want" ]] || die "after make sweep the Hetzner Cloud servers are '$left', want '$want'"
robot_name() { curl -fsS --max-time 5 "$control/robot/servers" | jq -r --argjson n "$1" '.[] | select(.server_number == $n) | .server_name'; }
left=$(robot_name "$robot_server")
[[ -z "$left" ]] || die "after make sweep Robot server $robot_server is named '$left', want it released (unnamed)"
left=$(robot_name "$other")
[[ "$left" == "tfacc-my-production-db$claim" ]] || die "after make sweep Robot server $other, not the tests', is named '$left'; the sweep must leave it claimed"
for n in "$robot_server" "$other"; do
	[[ "$(cancelled "$n")" == false ]] || die "make sweep cancelled Robot server $n; a sweep only releases claims"
done
want="990002=tfacc-made-by-hand 990003=web-1 100001=tfacc-my-production-db"
left=$(pve_vms)
[[ "$(tr ' ' '\n' <<<"$left" | sort | xargs)" == "$(tr ' ' '\n' <<<"$want" | sort | xargs)" ]] ||
	die "after make sweep the Proxmox VMs are '$left', want '$want'"
echo "testacc-emulator: done in $((SECONDS - started))s (tests ${tests_took}s); the tests created and destroyed $creates Hetzner Cloud servers," \
	"bootstrapped and released Robot server $robot_server, cloned and destroyed $clones Proxmox VMs${registered:+, and ran on $registered};" \
	"the sweep took only its own"
