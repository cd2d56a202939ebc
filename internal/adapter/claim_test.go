package adapter

import (
	"strings"
	"testing"
)

func TestNewClaimIsFreshAndALabelValue(t *testing.T) {
	a, b := NewClaim(), NewClaim()
	if a == b || len(a) != 32 || strings.Trim(a, "0123456789abcdef") != "" {
		t.Fatalf("claims %q and %q: want two different 32-digit lower-case hex tokens", a, b)
	}
}

func TestAdoptable(t *testing.T) {
	ours := Machine{ID: "7", Name: "web-1", Managed: true, Fingerprint: "fp", Claim: "old", State: StateRunning}
	for _, tc := range []struct {
		name  string
		m     func(Machine) Machine
		fp    string
		want  Code
		field string
	}{
		{name: "same request", m: func(m Machine) Machine { return m }, fp: "fp"},
		{name: "another state's claim is no obstacle", m: func(m Machine) Machine { m.Claim = "other"; return m }, fp: "fp"},
		{name: "another fingerprint", m: func(m Machine) Machine { return m }, fp: "other", want: Conflict},
		{name: "being deleted", m: func(m Machine) Machine { m.State = StateDeleting; return m }, fp: "fp", want: Transient},
		{name: "the key without the managed mark", m: func(m Machine) Machine { m.Managed = false; return m }, fp: "fp", want: Conflict, field: "name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Adoptable("create web-1", tc.m(ours), tc.fp)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("got %v, want adoption", err)
			case tc.want != "" && CodeOf(err) != tc.want:
				t.Fatalf("got %v, want code %s", err, tc.want)
			case tc.field != "" && FieldOf(err) != tc.field:
				t.Errorf("error names field %q, want %q", FieldOf(err), tc.field)
			}
		})
	}
}

func TestHeld(t *testing.T) {
	for _, tc := range []struct {
		machine, state string
		want           bool
	}{
		{"c1", "c1", true},
		{"c2", "c1", false},
		// A machine without a claim is guarded by its managed mark alone.
		{"", "c1", true},
		{"", "", true},
		// A state without a claim never holds a machine another claimed.
		{"c1", "", false},
	} {
		if got := Held(Machine{Claim: tc.machine}, tc.state); got != tc.want {
			t.Errorf("Held(machine claim %q, state claim %q) = %t, want %t", tc.machine, tc.state, got, tc.want)
		}
	}
}

func TestLostHoldAndSelfAdoptedSayWhatToDo(t *testing.T) {
	for _, err := range []*Error{LostHold("7", "web-1"), SelfAdopted("7", "web-1")} {
		if err.Code != Conflict || !strings.Contains(err.Message, "7") || !strings.Contains(err.Message, `"web-1"`) {
			t.Errorf("%v: want a Conflict naming the machine", err)
		}
	}
	if !strings.Contains(LostHold("7", "web-1").Message, "terraform state rm") ||
		!strings.Contains(SelfAdopted("7", "web-1").Message, "another name") {
		t.Error("the errors must carry their way out")
	}
}
