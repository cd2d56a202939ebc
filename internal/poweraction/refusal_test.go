package poweraction_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

var actions = []string{"power_on", "power_off", "shutdown", "reboot", "reset"}

// TestActionsRefuseMachinesNotHeldProto: no action acts on a machine this
// state does not hold, at plan or at invoke (the machine may change hands
// between the two): one without the provider's mark, one whose mark carries
// another state's claim, and one named by id without any claim. Each
// refusal names the machine, and nothing is sent.
func TestActionsRefuseMachinesNotHeldProto(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	mine, theirs := adapter.NewClaim(), adapter.NewClaim()
	for _, c := range []struct {
		name, claim string
		labels      map[string]string
		path, want  string
	}{
		{"unmarked", mine, nil, `AttributeName("instance").AttributeName("id")`, "does not carry the provider's mark"},
		{"other-claim", mine, held(theirs), `AttributeName("instance").AttributeName("claim")`, "is held by another Terraform state"},
		{"no-claim", "", held(theirs), `AttributeName("instance").AttributeName("claim")`, "is held by another Terraform state"},
	} {
		id := r.server("refuse-"+c.name, "running", c.labels)
		for _, a := range actions {
			name := "compute_instance_" + a
			r.e.ResetStats()
			plan := r.p.PlanAction(name, r.config(id, c.claim, nil))
			_, invoke := r.p.InvokeAction(name, r.config(id, c.claim, nil))
			for when, diags := range map[string]string{"plan": errorsOf(plan), "invoke": errorsOf(invoke)} {
				if !strings.Contains(diags, c.path+": ") || !strings.Contains(diags, c.want) || !strings.Contains(diags, "Machine "+id+" ") {
					t.Errorf("%s of %s on the %s machine: want an error on %s naming machine %s and saying %q, got:\n%s",
						when, name, c.name, c.path, id, c.want, diags)
				}
			}
			if calls := r.powerCalls(); len(calls) > 0 {
				t.Errorf("%s on the %s machine sent %v", name, c.name, calls)
			}
		}
	}
}

// TestActionsRefuseWhatTheAdapterCannotProto: an action the account's
// adapter does not offer is refused at plan, on instance.account, naming
// the action, the adapter and the action to use instead, and again at
// invoke; nothing is read: the backend serves no request.
func TestActionsRefuseWhatTheAdapterCannotProto(t *testing.T) {
	t.Parallel()
	// Robot servers have no graceful shutdown.
	metal := newMetalRig(t)
	diags := errorsOf(metal.p.PlanAction("compute_instance_shutdown", instanceOn(metal.account, "321")))
	for _, want := range []string{`AttributeName("instance").AttributeName("account"): `, "compute_instance_shutdown asks machine 321", "to shut down, but the robot adapter cannot do that",
		"Use compute_instance_power_off instead"} {
		if !strings.Contains(diags, want) {
			t.Errorf("the refused shutdown lacks %q:\n%s", want, diags)
		}
	}
	if n := served(metal.m.Robot.Stats()); n != 0 {
		t.Errorf("the refused shutdown sent %d requests to Robot; want none", n)
	}

	// An adapter without power at all refuses every action.
	reg := provider.DefaultRegistry()
	def, err := reg.Definition("hcloud")
	if err != nil {
		t.Fatal(err)
	}
	def.Kind = "powerless"
	def.Capabilities = adapter.Capabilities{adapter.CapUpdate, adapter.CapList}
	p := acctest.NewProto(t, adapter.NewRegistry(def))
	e := acctest.NewEmulator(t)
	loc := adapter.Locator{Kind: "powerless", Name: "p", Settings: map[string]string{
		"endpoint": e.Endpoint, "token": "env://" + acctest.HetznerCloudTokenEnv, "location": "fsn1",
	}}
	for _, a := range actions {
		// Invoke checks again: a configuration unknown at plan skips it there.
		_, invoked := p.InvokeAction("compute_instance_"+a, instanceOn(loc.String(), "7"))
		diags := errorsOf(p.PlanAction("compute_instance_"+a, instanceOn(loc.String(), "7"))) + "\n" + errorsOf(invoked)
		if strings.Count(diags, "the powerless adapter cannot do that") != 2 {
			t.Errorf("compute_instance_%s on an adapter without power is not refused at plan and at invoke:\n%s", a, diags)
		}
		for _, want := range []string{`AttributeName("instance").AttributeName("account"): `, "the powerless adapter cannot do that (it offers: no action)", "Remove this action"} {
			if !strings.Contains(diags, want) {
				t.Errorf("compute_instance_%s on an adapter without power lacks %q:\n%s", a, want, diags)
			}
		}
	}
	if n := served(e.Stats()); n != 0 {
		t.Errorf("the refused actions sent %d requests to the backend; want none: %v", n, e.Stats())
	}
}

// instanceOn is an action's configuration naming machine id on account.
func instanceOn(account, id string) map[string]tftypes.Value {
	return instanceObject(map[string]string{"id": id, "account": account, "claim": adapter.NewClaim()}, nil)
}

// TestRebootRefusesStoppedMachineProto: a reboot or a reset never starts a
// machine; the refusal names the way out.
func TestRebootRefusesStoppedMachineProto(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	claim := adapter.NewClaim()
	id := r.server("stopped-1", "off", held(claim))
	for _, a := range []string{"reboot", "reset"} {
		_, diags := r.p.InvokeAction("compute_instance_"+a, r.config(id, claim, nil))
		if got := errorsOf(diags); !strings.Contains(got, "acts on a running machine only") || !strings.Contains(got, "compute_instance_power_on") {
			t.Errorf("%s of a stopped machine: %s", a, got)
		}
	}
	if calls, s := r.powerCalls(), r.status(id); len(calls) > 0 || s.Status != "off" {
		t.Errorf("sent %v, server %s; want nothing sent and the server off", calls, s.Status)
	}
}

// TestShutdownFallsBackProto: a guest that ignores the shutdown request is
// powered off once shutdown_timeout has passed, with the instance's own
// warning naming the bound it used: the action's shutdown_timeout wins over
// the instance's, and the instance's applies when the action sets none.
func TestShutdownFallsBackProto(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	for _, c := range []struct {
		name, instance, action, want string
	}{
		{"action-wins", "1h", "3s", "3s"},
		{"instance-applies", "3s", "", "3s"},
	} {
		claim := adapter.NewClaim()
		id := r.server("deaf-"+c.name, "running", held(claim))
		n, _ := adapterID(id)
		r.e.SetIgnoresACPI(n, true)
		more := map[string]tftypes.Value{}
		if c.action != "" {
			more["shutdown_timeout"] = acctest.String(c.action)
		}
		r.e.ResetStats()
		_, diags := r.p.InvokeAction("compute_instance_shutdown", instanceObject(map[string]string{
			"id": id, "account": r.account, "claim": claim, "shutdown_timeout": c.instance,
		}, more))
		if acctest.HasError(diags) {
			t.Fatalf("%s: invoke: %s", c.name, errorsOf(diags))
		}
		if w := warningsOf(diags); !strings.Contains(w, "Machine powered off hard") || !strings.Contains(w, "within shutdown_timeout ("+c.want+")") {
			t.Errorf("%s (instance %s, action %q): want the fallback after %s, warnings: %s", c.name, c.instance, c.action, c.want, w)
		}
		if calls, s := r.powerCalls(), r.status(id); calls["shutdown"] != 1 || calls["poweroff"] < 1 || s.Status != "off" {
			t.Errorf("%s: sent %v, server %s; want a shutdown, then poweroff, and the server off", c.name, calls, s.Status)
		}
	}
}
