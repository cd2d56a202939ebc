package bootstrap

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestResumeWayOutTellsRefusalsApart: AccessDenied is a host key that did
// not match its pin as well as credentials the webservice refused; each
// failed bootstrap names its own way out, never the other's.
func TestResumeWayOutTellsRefusalsApart(t *testing.T) {
	refused := adapter.Errorf(adapter.AccessDenied, "Unable to authenticate (UNAUTHORIZED, HTTP 401)")
	mismatch := adapter.Errorf(adapter.AccessDenied, "the host key at 192.0.2.1:22 does not match its pin")
	mismatch.Err = adapter.ErrHostKeyMismatch
	cases := []struct {
		name      string
		err       error
		want, not string
	}{
		{"refused credentials", refused, "credentials", "host key"},
		{"host key mismatch", mismatch, "host key did not match its pin", "credentials"},
		{"wrapped mismatch", adapter.Within("rescue", mismatch), "host key did not match its pin", "credentials"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := resumeWayOut(tc.err)
			if !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
				t.Errorf("way out %q: want it to name %q and not %q", got, tc.want, tc.not)
			}
		})
	}
}

// TestResumeWayOutOfAFailedInstallSaysOnceWhatTheRerunDoes: after the
// installer or the first boot failed, the next apply installs anew; the way
// out must not also promise that it does not install twice.
func TestResumeWayOutOfAFailedInstallSaysOnceWhatTheRerunDoes(t *testing.T) {
	got := resumeWayOut(adapter.Errorf(adapter.InvalidState, `the installer failed on server 1 at step "installimage" (disk full)`))
	if !strings.Contains(got, "installs it anew") || strings.Contains(got, "without installing twice") ||
		strings.Count(got, "next apply") != 2 || strings.Contains(got, "disk full") {
		t.Errorf("way out %q: want one account of the rerun (installs anew, or untaint and resume), without the reason", got)
	}
}
