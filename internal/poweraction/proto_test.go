package poweraction_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// The marks the Hetzner Cloud adapter writes, as the emulator stores them.
const (
	labelManaged = "compute.seedcompute.io/managed"
	labelClaim   = "compute.seedcompute.io/claim"
)

// rig is a provider served through the protocol beside one emulator.
type rig struct {
	t       *testing.T
	e       *acctest.Emulator
	p       *acctest.Proto
	account string
}

func newRig(t *testing.T, reg *adapter.Registry) *rig {
	t.Helper()
	e := acctest.NewEmulator(t)
	loc := adapter.Locator{Kind: "hcloud", Name: "test", Settings: map[string]string{
		"endpoint": e.Endpoint, "token": "env://" + acctest.HetznerCloudTokenEnv, "location": "fsn1",
	}}
	if reg == nil {
		reg = provider.DefaultRegistry()
	}
	return &rig{t: t, e: e, p: acctest.NewProto(t, reg), account: loc.String()}
}

// server seeds a server in status with labels and returns its id.
func (r *rig) server(name, status string, labels map[string]string) string {
	return strconv.FormatInt(r.e.AddServer(emu.Server{Name: name, Status: status, Labels: labels}), 10)
}

// held are the marks of a machine the state with claim holds.
func held(claim string) map[string]string {
	return map[string]string{labelManaged: "true", labelClaim: claim}
}

// config is an action's configuration naming the instance, with more
// top-level attributes.
func (r *rig) config(id, claim string, more map[string]tftypes.Value) map[string]tftypes.Value {
	return instanceObject(map[string]string{"id": id, "account": r.account, "claim": claim}, more)
}

// instanceObject is an action's configuration whose instance object has the
// attributes in inst ("" leaves one null), with more top-level attributes.
func instanceObject(inst map[string]string, more map[string]tftypes.Value) map[string]tftypes.Value {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
	vals := map[string]tftypes.Value{}
	for _, a := range []string{"id", "account", "claim", "name", "shutdown_timeout", "power"} {
		typ.AttributeTypes[a] = tftypes.String
		vals[a] = tftypes.NewValue(tftypes.String, nil)
		if v := inst[a]; v != "" {
			vals[a] = acctest.String(v)
		}
	}
	out := map[string]tftypes.Value{"instance": tftypes.NewValue(typ, vals)}
	for k, v := range more {
		out[k] = v
	}
	return out
}

// status is the emulator's status of server id.
func (r *rig) status(id string) emu.Server {
	r.t.Helper()
	for _, s := range r.e.Live() {
		if strconv.FormatInt(s.ID, 10) == id {
			return s
		}
	}
	r.t.Fatalf("server %s is gone", id)
	return emu.Server{}
}

// powerCalls counts the power requests sent since the last ResetStats.
func (r *rig) powerCalls() map[string]int {
	out := map[string]int{}
	for _, a := range []string{"poweron", "poweroff", "shutdown", "reboot", "reset"} {
		if n := r.e.Stats()["POST /servers/{id}/actions/"+a]; n > 0 {
			out[a] = n
		}
	}
	return out
}

// requests counts every request the emulator served since the last
// ResetStats.
func (r *rig) requests() int { return served(r.e.Stats()) }

// served counts the requests an emulator's Stats hold, over every route.
func served(stats map[string]int) int {
	n := 0
	for _, c := range stats {
		n += c
	}
	return n
}

func errorsOf(diags []*tfprotov6.Diagnostic) string {
	return strings.Join(acctest.Diagnostics(diags, tfprotov6.DiagnosticSeverityError), "\n")
}

func warningsOf(diags []*tfprotov6.Diagnostic) string {
	return strings.Join(acctest.Diagnostics(diags, tfprotov6.DiagnosticSeverityWarning), "\n")
}

// TestActionsProto invokes every action on a machine this state holds: each
// sends what it names and nothing else, waits until the machine is where
// it asked, and leaves a machine already there alone.
func TestActionsProto(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	for _, c := range []struct {
		action, from, to string
		calls            map[string]int
		restarts         int
		progress         string
	}{
		{"power_on", "off", "running", map[string]int{"poweron": 1}, 0, "asking for power on"},
		{"power_on", "running", "running", map[string]int{}, 0, "is running already: nothing to power on"},
		{"power_off", "running", "off", map[string]int{"poweroff": 1}, 0, "asking for power off"},
		{"power_off", "off", "off", map[string]int{}, 0, "is stopped already"},
		{"shutdown", "running", "off", map[string]int{"shutdown": 1}, 0, "asking for shutdown"},
		{"shutdown", "off", "off", map[string]int{}, 0, "is stopped already: nothing to shut down"},
		{"reboot", "running", "running", map[string]int{"reboot": 1}, 1, "asking for reboot"},
		{"reset", "running", "running", map[string]int{"reset": 1}, 1, "asking for reset"},
	} {
		t.Run(c.action+"/"+c.from, func(t *testing.T) {
			claim := adapter.NewClaim()
			id := r.server(strings.ReplaceAll(c.action, "_", "-")+"-"+c.from, c.from, held(claim))
			name := "compute_instance_" + c.action
			if diags := r.p.PlanAction(name, r.config(id, claim, nil)); acctest.HasError(diags) {
				t.Fatalf("plan: %s", errorsOf(diags))
			}
			before := r.powerCalls()
			progress, diags := r.p.InvokeAction(name, r.config(id, claim, nil))
			if acctest.HasError(diags) {
				t.Fatalf("invoke: %s", errorsOf(diags))
			}
			after := r.powerCalls()
			for a, n := range c.calls {
				if after[a]-before[a] != n {
					t.Errorf("%s requests: %d, want %d", a, after[a]-before[a], n)
				}
			}
			for a := range after {
				if _, ok := c.calls[a]; !ok && after[a] != before[a] {
					t.Errorf("%s sent %d %s requests; want none", name, after[a]-before[a], a)
				}
			}
			s := r.status(id)
			if s.Status != c.to || s.Restarts != c.restarts {
				t.Errorf("server is %s after %d restarts; want %s after %d", s.Status, s.Restarts, c.to, c.restarts)
			}
			if all := strings.Join(progress, "\n"); !strings.Contains(all, c.progress) {
				t.Errorf("progress lacks %q:\n%s", c.progress, all)
			}
		})
	}
}

// adapterID is a server id as the emulator takes it.
func adapterID(id string) (int64, error) { return strconv.ParseInt(id, 10, 64) }
