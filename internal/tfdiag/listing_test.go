package tfdiag

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestListStopped: the account or the command is to blame only for a
// stopped command and a secret that cannot be had; a failing backend gets
// "" and the listing's way out.
func TestListStopped(t *testing.T) {
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	failing := adapter.Errorf(adapter.Transient, "503")
	for _, c := range []struct {
		name    string
		command context.Context
		err     error
		want    string
	}{
		{"stopped", stopped, failing, "was interrupted, because the command was stopped"},
		{"secret at apply", context.Background(), fmt.Errorf("x: %w", ErrUnknownUntilApply), "Use an env:// or file:// reference for accounts that compute_things reads."},
		{"secret unresolved", context.Background(), &adapter.Error{Code: adapter.InvalidConfig, Err: adapter.ErrUnresolved, Message: "env://X is not set"},
			"compute_things is read during plan, so the secret must be there already"},
		{"backend", context.Background(), failing, ""},
	} {
		got := ListStopped(c.command, c.err, "things", "compute_things", "acct")
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestListWayOut: a backend that fails or does not answer is told with the
// account's endpoint, redacted; other codes get WayOut's.
func TestListWayOut(t *testing.T) {
	err := adapter.Errorf(adapter.Transient, "503")
	if got := ListWayOut(err, "https://user:pw@api.example/v1?k=s3cr3t"); !strings.Contains(got, "the account's endpoint https://") ||
		strings.Contains(got, "pw") || strings.Contains(got, "s3cr3t") || !strings.Contains(got, "timeouts.read") {
		t.Errorf("transient: %q", got)
	}
	if got := ListWayOut(err, ""); !strings.Contains(got, "the account's backend is reachable") {
		t.Errorf("transient without an endpoint: %q", got)
	}
	denied := adapter.Errorf(adapter.AccessDenied, "no")
	if got := ListWayOut(denied, "https://api.example/v1"); got != WayOut(denied) {
		t.Errorf("access denied: %q, want WayOut's", got)
	}
}

// TestQueryWayOut: a list block has no timeouts block, so no way out of a
// query names one; each still names the endpoint and the command to run
// again.
func TestQueryWayOut(t *testing.T) {
	for _, err := range []error{
		&adapter.Error{Code: adapter.Transient, Message: "connection refused", Err: adapter.MarkUnreachable(fmt.Errorf("dial tcp: connection refused"))},
		adapter.Errorf(adapter.Transient, "503"),
		adapter.Errorf(adapter.RateLimited, "429"),
	} {
		got := QueryWayOut(err, "http://127.0.0.1:9/v1")
		if strings.Contains(got, "timeouts") || !strings.Contains(got, "terraform query again") {
			t.Errorf("%v: %q, want no timeouts named and the query run again", err, got)
		}
	}
	if got := QueryWayOut(adapter.Errorf(adapter.AccessDenied, "401"), ""); got != WayOut(adapter.Errorf(adapter.AccessDenied, "401")) {
		t.Errorf("access denied: %q, want WayOut's", got)
	}
}
