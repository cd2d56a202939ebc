package adapter_test

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A malformed id is InvalidInput naming the rule, and repeats a pasted
// secret only redacted; a well-formed one passes.
func TestRefuseID(t *testing.T) {
	rule := adapter.Rule{Text: "a number", Check: func(v string) bool { return strings.Trim(v, "0123456789") == "" }}
	if err := rule.RefuseID("42", "a test id"); err != nil {
		t.Errorf("a well-formed id: %v", err)
	}
	const pasted = "tc_live_Q9x7Vb2Lm4Np8Rs6Tu1Wy3Za5Cd0Ef"
	err := rule.RefuseID(pasted, "a test id")
	if !adapter.Is(err, adapter.InvalidInput) || strings.Contains(err.Error(), pasted) || !strings.Contains(err.Error(), "must be a number") ||
		!strings.Contains(err.Error(), "a test id") {
		t.Errorf("refusal %v: want InvalidInput naming the rule, without the id", err)
	}
	var e *adapter.Error
	if !errors.As(err, &e) || e.Field != "id" || !strings.HasPrefix(e.Message, "machine id ") {
		t.Errorf("refusal %v: want it on the attribute id, saying it is a machine id", err)
	}
}

// An update keeps what it does not set: the machine's mark and labels, and
// the claim under a mark without one.
func TestUpdateWrites(t *testing.T) {
	cur := adapter.Machine{Labels: map[string]string{"a": "1"}}
	cur.SetMark(true, adapter.Mark{Key: "k", Fingerprint: "f", Claim: "c"})
	user, mark := adapter.UpdateRequest{}.Writes(cur)
	if mark != cur.Mark() || !maps.Equal(user, cur.Labels) {
		t.Errorf("an empty update writes %+v %v", mark, user)
	}
	user, mark = adapter.UpdateRequest{Labels: map[string]string{}, Mark: &adapter.Mark{Key: "k2", Fingerprint: "f2"}}.Writes(cur)
	if mark != (adapter.Mark{Key: "k2", Fingerprint: "f2", Claim: "c"}) || user == nil || len(user) != 0 {
		t.Errorf("an update with a mark and no labels writes %+v %v", mark, user)
	}
}

// Running without an address is pending; an unmarked machine offers no
// action, a marked one those of its state.
func TestConclude(t *testing.T) {
	caps := adapter.Capabilities{adapter.CapPower}
	for _, c := range []struct {
		name    string
		m       adapter.Machine
		state   adapter.State
		actions int
	}{
		{"no address", adapter.Machine{State: adapter.StateRunning, Managed: true}, adapter.StatePending, len(adapter.ActionsFor(adapter.StatePending, caps))},
		{"managed", adapter.Machine{State: adapter.StateRunning, IPv4: "192.0.2.1", Managed: true}, adapter.StateRunning, len(adapter.ActionsFor(adapter.StateRunning, caps))},
		{"unmarked", adapter.Machine{State: adapter.StateRunning, IPv6: "2001:db8::1", Actions: []adapter.PowerAction{adapter.PowerOff}}, adapter.StateRunning, 0},
	} {
		c.m.Conclude(caps)
		if c.m.State != c.state || len(c.m.Actions) != c.actions {
			t.Errorf("%s: %s with %v, want %s with %d actions", c.name, c.m.State, c.m.Actions, c.state, c.actions)
		}
	}
	if len(adapter.ActionsFor(adapter.StateRunning, caps)) == 0 {
		t.Fatal("the running machine's actions prove nothing: none are offered")
	}
}
