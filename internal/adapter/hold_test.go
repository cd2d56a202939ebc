package adapter

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestAdoptable runs the rule on an injected clock: now is fixed, and each
// machine's claim is made at a time relative to it.
func TestAdoptable(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	call := Call{Claim: NewClaimAt(now), Account: `"prod-cloud"`}
	other := func(age time.Duration) string { return NewClaimAt(now.Add(-age)) }
	pending := Machine{ID: "7", Name: "web-1", Managed: true, Fingerprint: "fp", Claim: other(10 * time.Minute), Unconfirmed: true, State: StateRunning}
	for _, tc := range []struct {
		name string
		m    func(Machine) Machine
		fp   string
		want Code
		held bool // the refusal is the one of a machine another state holds
	}{
		{name: "an unconfirmed claim within the window", m: func(m Machine) Machine { return m }, fp: "fp"},
		{name: "at the window's end", m: func(m Machine) Machine { m.Claim = other(RecoveryWindow); return m }, fp: "fp"},
		{name: "past the window", m: func(m Machine) Machine { m.Claim = other(RecoveryWindow + time.Second); return m }, fp: "fp", want: Conflict, held: true},
		{name: "made far in the future", m: func(m Machine) Machine { m.Claim = other(-RecoveryWindow - time.Second); return m }, fp: "fp", want: Conflict, held: true},
		{name: "an unconfirmed claim without a time", m: func(m Machine) Machine { m.Claim = "x"; return m }, fp: "fp", want: Conflict, held: true},
		{name: "confirmed", m: func(m Machine) Machine { m.Unconfirmed = false; return m }, fp: "fp", want: Conflict, held: true},
		{name: "confirmed, with other settings", m: func(m Machine) Machine { m.Unconfirmed = false; return m }, fp: "other", want: Conflict, held: true},
		{name: "an old mark without a claim", m: func(m Machine) Machine { m.Claim, m.Unconfirmed = "", false; return m }, fp: "fp", want: Conflict, held: true},
		{name: "the create's own claim, confirmed or old", m: func(m Machine) Machine { m.Claim, m.Unconfirmed = call.Claim, false; return m }, fp: "fp"},
		{name: "another fingerprint", m: func(m Machine) Machine { return m }, fp: "other", want: Conflict},
		{name: "being deleted", m: func(m Machine) Machine { m.State = StateDeleting; return m }, fp: "fp", want: Transient},
		{name: "the key without the managed mark", m: func(m Machine) Machine { m.Managed = false; return m }, fp: "fp", want: Conflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Adoptable("create web-1", tc.m(pending), call, tc.fp, now)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("got %v, want adoption", err)
			case tc.want != "" && CodeOf(err) != tc.want:
				t.Fatalf("got %v, want code %s", err, tc.want)
			case tc.want == Conflict && FieldOf(err) != FieldName:
				t.Errorf("error names field %q, want %q", FieldOf(err), FieldName)
			case errors.Is(err, ErrHeldElsewhere) != tc.held:
				t.Errorf("errors.Is(%v, ErrHeldElsewhere) = %t, want %t", err, !tc.held, tc.held)
			}
		})
	}
}

// TestHeldElsewhereNamesMachineAccountAndWaysOut: the refusal names the
// machine by id and name, the account as the Terraform layer described it,
// and both ways out.
func TestHeldElsewhereNamesMachineAccountAndWaysOut(t *testing.T) {
	now := time.Now()
	m := Machine{ID: "42", Name: "web-1", Managed: true, Fingerprint: "fp", Claim: NewClaimAt(now)}
	err := Adoptable("create server \"web-1\"", m, Call{Claim: NewClaimAt(now), Account: `"prod-cloud"`}, "fp", now)
	for _, want := range []string{`machine 42 ("web-1")`, `account "prod-cloud"`, `its name or hostname, e.g. "web-1-${terraform.workspace}"`, "`terraform state rm`", "import it here", "ACCOUNT_ID/42", "nothing was written"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal lacks %q:\n%s", want, err)
		}
	}
	err = Adoptable("create", m, Call{Claim: NewClaimAt(now)}, "fp", now)
	if !strings.Contains(err.Error(), "on this account") {
		t.Errorf("without Call.Account the refusal must say \"this account\": %s", err)
	}
}
