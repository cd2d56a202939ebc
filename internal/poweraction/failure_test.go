package poweraction_test

import (
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestActionTimeoutNamesItsAttributeProto: an action whose machine does
// not get where it asked within its timeout fails naming the action's
// `timeout` attribute and its value, the way out it has, and never a
// timeouts block, which actions do not have.
func TestActionTimeoutNamesItsAttributeProto(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	claim := adapter.NewClaim()
	id := r.server("never-on", "off", held(claim))
	// The start the action asks for never ends.
	if err := r.e.SetActionPace(emu.ActionPace{Polls: 1 << 30}); err != nil {
		t.Fatal(err)
	}
	_, diags := r.p.InvokeAction("compute_instance_power_on", r.config(id, claim, map[string]tftypes.Value{"timeout": acctest.String("1s")}))
	got := errorsOf(diags)
	for _, want := range []string{"Unable to power on machine", "until the action's `timeout` (now 1s) ran out", "raise `timeout`"} {
		if !strings.Contains(got, want) {
			t.Errorf("the timed-out action lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "timeouts") {
		t.Errorf("the timed-out action names a timeouts block:\n%s", got)
	}
}

// TestActionGivesUpOnUnreachableEndpointProto: an action invoked while
// the account's endpoint refuses connections gives up after its
// `unreachable` bound, as the plan's reads do, instead of retrying until
// its timeout (10 minutes), and says so, naming the bound and the way
// out; nothing reached the backend.
func TestActionGivesUpOnUnreachableEndpointProto(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	claim := adapter.NewClaim()
	id := r.server("down-1", "running", held(claim))
	r.e.Stop()
	for _, c := range []struct {
		unreachable, want string
	}{
		{"", "gave up on it after `unreachable` (now 30s) instead of retrying until `timeout` (now 10m)"},
		{"0s", "gave up on it after `unreachable` (now 0s)"},
	} {
		more := map[string]tftypes.Value{}
		if c.unreachable != "" {
			more["unreachable"] = acctest.String(c.unreachable)
		}
		_, diags := r.p.InvokeAction("compute_instance_reboot", r.config(id, claim, more))
		got := errorsOf(diags)
		for _, want := range []string{c.want, "could not be reached (connection refused)", "Set `unreachable` to retry for longer"} {
			if !strings.Contains(got, want) {
				t.Errorf("unreachable = %q: the action's failure lacks %q:\n%s", c.unreachable, want, got)
			}
		}
	}
}

// TestRestartOfStoppedMachineRefusedAtPlanProto: the plan has read the
// machine, so a reboot or a reset of a stopped machine is refused there, on
// instance.id, as the invoke would refuse it; unless the instance's power
// is "on" (an apply that starts it runs before a trigger's action). An id
// the adapter could not have given is refused at plan too, before any
// request, and shown only redacted. No power request is sent.
func TestRestartOfStoppedMachineRefusedAtPlanProto(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	claim := adapter.NewClaim()
	id := r.server("stopped-plan", "off", held(claim))
	const onID = `AttributeName("instance").AttributeName("id"): `
	const pasted = "hc_TOKEN/Secret+Value"
	for _, c := range []struct {
		action, id, power string
		want              string // "" for a plan that passes
		reads             bool   // whether the plan reads the machine
	}{
		{"reboot", id, "", "Machine " + id + ` ("stopped-plan") is stopped (backend status "off"), and a reboot acts on a running machine only`, true},
		{"reset", id, "off", "and a reset acts on a running machine only", true},
		{"reboot", id, "on", "", true},
		{"power_on", id, "", "", true},
		{"reboot", "abc", "", `instance.id "abc" is not a machine id of the hcloud adapter`, false},
		{"reboot", pasted, "", "instance.id (the value is not shown, it may be a secret) is not a machine id", false},
	} {
		before := r.requests()
		diags := errorsOf(r.p.PlanAction("compute_instance_"+c.action, instanceObject(map[string]string{
			"id": c.id, "account": r.account, "claim": claim, "power": c.power,
		}, nil)))
		switch {
		case c.want == "" && diags != "":
			t.Errorf("plan of %s of %s (power %q) failed:\n%s", c.action, c.id, c.power, diags)
		case c.want != "" && (!strings.Contains(diags, onID) || !strings.Contains(diags, c.want)):
			t.Errorf("plan of %s of %s (power %q): want an error on instance.id saying %q, got:\n%s", c.action, c.id, c.power, c.want, diags)
		case strings.Contains(diags, "TOKEN") || strings.Contains(diags, "Secret"):
			t.Errorf("plan of %s: the refusal repeats the pasted id:\n%s", c.action, diags)
		}
		if sent := r.requests() - before; !c.reads && sent != 0 {
			t.Errorf("plan of %s of a malformed id sent %d requests; want none", c.action, sent)
		}
	}
	if calls := r.powerCalls(); len(calls) > 0 {
		t.Errorf("the plans sent %v", calls)
	}
}

// TestActionErrorsKeepSecretsProto: what an action sends on its error
// paths (its progress, as Terraform prints it, and the diagnostics of the
// plan and of the completion) never holds the account's token: a token the
// backend refuses, a backend that keeps failing until the timeout, and an
// endpoint that cannot be reached.
func TestActionErrorsKeepSecretsProto(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	claim := adapter.NewClaim()
	id := r.server("secret-1", "running", held(claim))
	wrong := adapter.Locator{Kind: "hcloud", Name: "wrong", Settings: map[string]string{
		"endpoint": r.e.Endpoint, "token": "env://" + acctest.WrongTokenEnv, "location": "fsn1",
	}}
	tokens := []string{acctest.Token, os.Getenv(acctest.WrongTokenEnv)}
	search := func(name string, progress []string, diags ...string) {
		t.Helper()
		all := strings.Join(append(progress, diags...), "\n")
		if all == "" {
			t.Fatalf("%s: the action sent nothing to search", name)
		}
		for _, tok := range tokens {
			if tok == "" || strings.Contains(all, tok) {
				t.Errorf("%s: the action's output holds the token %q (or it is unknown):\n%s", name, tok, all)
			}
		}
	}

	cfg := instanceObject(map[string]string{"id": id, "account": wrong.String(), "claim": claim}, nil)
	plan := r.p.PlanAction("compute_instance_reboot", cfg)
	progress, diags := r.p.InvokeAction("compute_instance_reboot", cfg)
	if !strings.Contains(errorsOf(diags), "refused the account's credentials") {
		t.Errorf("the refused token's invoke: %s", errorsOf(diags))
	}
	search("refused token", progress, errorsOf(plan), errorsOf(diags), warningsOf(diags))

	if err := r.e.Faults().FailNext("GET", "/servers/{id}", 1<<20, 503, "unavailable"); err != nil {
		t.Fatal(err)
	}
	more := map[string]tftypes.Value{"timeout": acctest.String("1s")}
	plan = r.p.PlanAction("compute_instance_reboot", r.config(id, claim, more))
	progress, diags = r.p.InvokeAction("compute_instance_reboot", r.config(id, claim, more))
	if !strings.Contains(errorsOf(diags), "`timeout` (now 1s)") {
		t.Errorf("the failing backend's invoke: %s", errorsOf(diags))
	}
	search("failing backend", progress, errorsOf(plan), errorsOf(diags), warningsOf(diags))

	r.e.Stop()
	progress, diags = r.p.InvokeAction("compute_instance_reboot", r.config(id, claim, nil))
	search("unreachable endpoint", progress, errorsOf(diags), warningsOf(diags))
}
