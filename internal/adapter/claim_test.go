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

// TestResumable: a state without a claim takes up a machine whose
// unconfirmed claim was made within RecoveryWindow (the mark its own killed
// apply wrote after an import), and nothing else.
func TestResumable(t *testing.T) {
	now := time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC)
	recent := NewClaimAt(now.Add(-10 * time.Minute))
	for _, tc := range []struct {
		name  string
		m     Machine
		state string
		want  bool
	}{
		{"its first mark, unconfirmed and recent", Machine{Claim: recent, Managed: true, Unconfirmed: true}, "", true},
		{"made a little ahead by a clock that runs fast", Machine{Claim: NewClaimAt(now.Add(time.Minute)), Managed: true, Unconfirmed: true}, "", true},
		{"confirmed: another state refreshed it", Machine{Claim: recent, Managed: true}, "", false},
		{"past the window", Machine{Claim: NewClaimAt(now.Add(-RecoveryWindow - time.Second)), Managed: true, Unconfirmed: true}, "", false},
		{"the state has a claim of its own", Machine{Claim: recent, Managed: true, Unconfirmed: true}, NewClaimAt(now), false},
		{"no claim on the machine", Machine{Managed: true, Unconfirmed: true}, "", false},
		{"not managed", Machine{Claim: recent, Unconfirmed: true}, "", false},
		{"a claim without a time", Machine{Claim: strings.Repeat("z", 32), Managed: true, Unconfirmed: true}, "", false},
	} {
		if got := Resumable(tc.m, tc.state, now); got != tc.want {
			t.Errorf("%s: Resumable = %t, want %t", tc.name, got, tc.want)
		}
	}
}

// TestResumesAs: the update that writes a first claim takes up only a
// Resumable machine whose mark carries its own create key.
func TestResumesAs(t *testing.T) {
	now := time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC)
	m := Machine{Key: "k1", Claim: NewClaimAt(now.Add(-time.Minute)), Managed: true, Unconfirmed: true}
	if !ResumesAs(m, "", "k1", now) {
		t.Error("its own key: not taken up")
	}
	if ResumesAs(m, "", "k2", now) {
		t.Error("another key: taken up")
	}
	m.Unconfirmed = false
	if ResumesAs(m, "", "k1", now) {
		t.Error("a confirmed claim of its own key: taken up")
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
