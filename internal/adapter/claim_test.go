package adapter

import (
	"strings"
	"testing"
	"time"
)

func TestNewClaimIsFreshAndALabelValue(t *testing.T) {
	a, b := NewClaim(), NewClaim()
	if a == b || len(a) != 32 || strings.Trim(a, "0123456789abcdef") != "" {
		t.Fatalf("claims %q and %q: want two different 32-digit lower-case hex tokens", a, b)
	}
}

func TestClaimTime(t *testing.T) {
	at := time.Date(2026, 12, 1, 21, 30, 5, 0, time.UTC)
	c := NewClaimAt(at)
	if got, ok := ClaimTime(c); !ok || !got.Equal(at) {
		t.Errorf("ClaimTime(NewClaimAt(%s)) = %s, %t", at, got, ok)
	}
	if NewClaimAt(at) == c {
		t.Errorf("two claims made in the same second are equal: %s", c)
	}
	for _, bad := range []string{"", "abc", strings.Repeat("z", 32)} {
		if _, ok := ClaimTime(bad); ok {
			t.Errorf("ClaimTime(%q) has a time", bad)
		}
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
	for _, err := range []*Error{LostHold("7", "web-1", `"prod" (demo)`), SelfAdopted("7", "web-1")} {
		if err.Code != Conflict || !strings.Contains(err.Message, "7") || !strings.Contains(err.Message, `"web-1"`) {
			t.Errorf("%v: want a Conflict naming the machine", err)
		}
	}
	if !strings.Contains(LostHold("7", "web-1", `"prod" (demo)`).Message, "terraform state rm") ||
		!strings.Contains(LostHold("7", "web-1", `"prod" (demo)`).Message, `on account "prod" (demo) is now held`) ||
		!strings.Contains(SelfAdopted("7", "web-1").Message, "another name") {
		t.Error("the errors must carry their way out")
	}
}
