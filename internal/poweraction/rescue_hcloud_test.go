package poweraction_test

import (
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// cloudRescueRig is a Hetzner Cloud account reached through a tap that
// keeps every root password the API answers (the sentinels), with keys as
// its rescue_ssh_keys setting.
func cloudRescueRig(t *testing.T, keys string) (*rig, *emu.PasswordTap) {
	t.Helper()
	e := acctest.NewEmulator(t)
	e.AddSSHKey("ops", emu.ExamplePublicKey)
	tap := emu.NewPasswordTap(e.Emulator)
	srv := httptest.NewServer(tap)
	t.Cleanup(srv.Close)
	settings := map[string]string{"endpoint": srv.URL + emu.BasePath, "token": "env://" + acctest.HetznerCloudTokenEnv, "location": "fsn1"}
	if keys != "" {
		settings["rescue_ssh_keys"] = keys
	}
	loc := adapter.Locator{Kind: "hcloud", Name: "cloud", Settings: settings}
	return &rig{t: t, e: e, p: acctest.NewProto(t, provider.DefaultRegistry()), account: loc.String()}, tap
}

// TestRescueHcloudProto: compute_instance_rescue plans and boots a Hetzner
// Cloud server into rescue with the account's project key: one
// enable_rescue, one reset, the server runs rescue with rescue_enabled
// spent, and the root password the API answered is in no diagnostic and no
// progress message.
func TestRescueHcloudProto(t *testing.T) {
	t.Parallel()
	r, tap := cloudRescueRig(t, "ops")
	claim := adapter.NewClaim()
	id := r.server("rescue-1", "running", held(claim))
	plan := r.p.PlanAction("compute_instance_rescue", r.config(id, claim, nil))
	if acctest.HasError(plan) {
		t.Fatalf("plan: %s", errorsOf(plan))
	}
	progress, diags := r.p.InvokeAction("compute_instance_rescue", r.config(id, claim, nil))
	if acctest.HasError(diags) {
		t.Fatalf("invoke: %s", errorsOf(diags))
	}
	n, _ := strconv.ParseInt(id, 10, 64)
	if s, _ := r.e.Server(n); !s.InRescue || s.RescueEnabled {
		t.Errorf("after the action server %s: in rescue %t, rescue_enabled %t; want booted into rescue, disarmed", id, s.InRescue, s.RescueEnabled)
	}
	st := r.e.Stats()
	if st["POST /servers/{id}/actions/enable_rescue"] != 1 || st["POST /servers/{id}/actions/reset"] != 1 {
		t.Errorf("requests %v, want one enable_rescue and one reset", st)
	}
	all := strings.Join(progress, "\n")
	if !strings.Contains(all, "runs its rescue system") {
		t.Errorf("progress does not say the machine runs its rescue system:\n%s", all)
	}
	if !strings.Contains(all, "log in as root with one of the project keys the account's rescue_ssh_keys setting names, once SSH answers") {
		t.Errorf("progress does not name the key to log in with, from when:\n%s", all)
	}
	passwords := tap.Seen()
	if len(passwords) == 0 {
		t.Fatal("the API answered no root password, so the sentinel check would pass vacuously")
	}
	said := all + "\n" + errorsOf(plan) + "\n" + warningsOf(plan) + "\n" + errorsOf(diags) + "\n" + warningsOf(diags)
	for i, pw := range passwords {
		if strings.Contains(said, pw) {
			t.Errorf("root password #%d the API answered reached the action's progress or diagnostics (shown as [password]):\n%s",
				i, strings.ReplaceAll(said, pw, "[password]"))
		}
	}
}

// TestRescueHcloudRefusedWithoutKeysProto: a Hetzner Cloud account without
// rescue_ssh_keys is refused at plan on instance.account, naming the
// setting; nothing is read or armed.
func TestRescueHcloudRefusedWithoutKeysProto(t *testing.T) {
	t.Parallel()
	r, _ := cloudRescueRig(t, "")
	claim := adapter.NewClaim()
	id := r.server("no-keys-1", "running", held(claim))
	before := fmt.Sprint(r.e.Stats())
	diags := errorsOf(r.p.PlanAction("compute_instance_rescue", r.config(id, claim, nil)))
	for _, want := range []string{`AttributeName("instance").AttributeName("account"): `,
		"compute_instance_rescue needs the account's rescue_ssh_keys setting, which is not set", "machine " + id} {
		if !strings.Contains(diags, want) {
			t.Errorf("plan without rescue_ssh_keys lacks %q:\n%s", want, diags)
		}
	}
	if after := fmt.Sprint(r.e.Stats()); after != before {
		t.Errorf("the refused plan sent requests: before %s, after %s", before, after)
	}
	n, _ := strconv.ParseInt(id, 10, 64)
	if s, _ := r.e.Server(n); s.InRescue || s.RescueEnabled {
		t.Errorf("the refused plan armed or booted rescue on server %s", id)
	}
}

// TestRescueHcloudUnknownKeyProto: a key the project lacks fails the
// invocation naming it as a name or an id, with the account's setting as
// the way out and not the provider block's secrets, which it holds none
// of; nothing is armed.
func TestRescueHcloudUnknownKeyProto(t *testing.T) {
	t.Parallel()
	r, _ := cloudRescueRig(t, "9999999")
	claim := adapter.NewClaim()
	id := r.server("unknown-key-1", "running", held(claim))
	_, diags := r.p.InvokeAction("compute_instance_rescue", r.config(id, claim, nil))
	got := errorsOf(diags)
	for _, want := range []string{`no SSH key named or with id "9999999"`, "Fix the account's `rescue_ssh_keys` setting"} {
		if !strings.Contains(got, want) {
			t.Errorf("invoke with a key the project lacks: want %q, got:\n%s", want, got)
		}
	}
	if strings.Contains(got, "secrets") {
		t.Errorf("the way out of a key the project lacks names the provider block's secrets:\n%s", got)
	}
	n, _ := strconv.ParseInt(id, 10, 64)
	if s, _ := r.e.Server(n); s.InRescue || s.RescueEnabled {
		t.Errorf("the failed invocation armed or booted rescue on server %s", id)
	}
}
