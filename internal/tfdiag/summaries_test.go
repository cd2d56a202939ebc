package tfdiag

import "testing"

// TestSummariesFollowThePattern: every error diagnostic the provider can
// raise is summed up "Unable to <verb> <object>" and every warning says
// what happened, never "Unable to" (nothing was refused). The summaries are
// read from the source, so a new path cannot slip through: every call of a
// diagnostic constructor in internal/ whose summary is a literal, a
// constant, a variable set from those, or a concatenation of them.
func TestSummariesFollowThePattern(t *testing.T) {
	sites, passed := scanSummaries(t, "..")
	if len(sites) < 50 {
		t.Fatalf("found %d summaries; the scan has lost its way", len(sites))
	}
	for _, s := range sites {
		if msg := CheckSummary(s.text, s.error); msg != "" {
			t.Errorf("%s: %q %s", s.pos, s.text, msg)
		}
	}
	t.Logf("%d summaries checked, %d passed in as parameters (checked where they are made)", len(sites), passed)
}

// TestCheckSummary: the form itself, so that a scan that passes is not a
// check that accepts anything.
func TestCheckSummary(t *testing.T) {
	for _, c := range []struct {
		summary string
		isError bool
		ok      bool
	}{
		{"Unable to create instance", true, true},
		{"Unable to use shutdown_timeout", true, true},
		{"Unable to list machines", true, true},
		{"Invalid machine name", true, false},
		{"Unable to create Instance", true, false},
		{"Unable to create instance.", true, false},
		{"Unable to create", true, false},
		{"Instance not refreshed", false, true},
		{"Machine's rental will be cancelled", false, true},
		{"Unable to refresh instance", false, false},
		{"instance not refreshed", false, false},
		{"Instance not refreshed.", false, false},
	} {
		if got := CheckSummary(c.summary, c.isError) == ""; got != c.ok {
			t.Errorf("CheckSummary(%q, error=%v) accepts it: %v, want %v", c.summary, c.isError, got, c.ok)
		}
	}
}
