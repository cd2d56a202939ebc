package tfdiag

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

func TestAddErrorPutsFieldOnAttribute(t *testing.T) {
	var diags diag.Diagnostics
	err := fmt.Errorf("wrapped: %w", adapter.Errorf(adapter.InvalidInput, `offer "cx99" does not exist`).WithField("offer_id"))
	AddError(&diags, Fields("offer_id", "image"), "Unable to use instance configuration", "The account refuses it.", err)
	if len(diags) != 1 {
		t.Fatalf("got %d diagnostics", len(diags))
	}
	d, ok := diags[0].(diag.DiagnosticWithPath)
	if !ok || !d.Path().Equal(path.Root("offer_id")) {
		t.Fatalf("diagnostic is not on offer_id: %#v", diags[0])
	}
	if want := "The account refuses it.\n\nOffer \"cx99\" does not exist (InvalidInput)"; d.Detail() != want {
		t.Fatalf("detail %q, want %q", d.Detail(), want)
	}
}

// TestAdapterMessageBeginsSentence: the adapter's message, written to
// follow a colon, begins its paragraph with a capital; a first word that is
// a name keeps its spelling.
func TestAdapterMessageBeginsSentence(t *testing.T) {
	cases := map[string]string{
		"check the PVE API: refused":   "Check the PVE API: refused (AccessDenied)",
		"token: the value is not sent": "Token: the value is not sent (AccessDenied)",
		"api_token: wrong shape":       "api_token: wrong shape (AccessDenied)",
		"proxmox.flavors is refused":   "proxmox.flavors is refused (AccessDenied)",
		"fsn1 is full":                 "fsn1 is full (AccessDenied)",
		"VM 100 is locked":             "VM 100 is locked (AccessDenied)",
	}
	for msg, want := range cases {
		for _, detail := range []string{"", "What was done."} {
			var diags diag.Diagnostics
			AddWarning(&diags, nil, "S", detail, adapter.Errorf(adapter.AccessDenied, "%s", msg))
			full := want
			if detail != "" {
				full = detail + "\n\n" + want
			}
			if got := diags[0].Detail(); got != full {
				t.Errorf("detail %q, want %q", got, full)
			}
		}
	}
}

func TestAddErrorWithoutKnownField(t *testing.T) {
	var diags diag.Diagnostics
	AddError(&diags, Fields("image"), "S", "", adapter.Errorf(adapter.Transient, "later").WithField("offer_id"))
	if _, ok := diags[0].(diag.DiagnosticWithPath); ok {
		t.Fatal("a field the mapping does not know must not become a path")
	}
}

func TestUnknownUntilApply(t *testing.T) {
	err := &adapter.Error{Code: adapter.InvalidConfig, Message: "not known", Err: ErrUnknownUntilApply}
	if !UnknownUntilApply(fmt.Errorf("x: %w", err)) || UnknownUntilApply(errors.New("other")) {
		t.Fatal("UnknownUntilApply does not follow the chain")
	}
}

func TestWayOutCoversRetriedAndRefusedCodes(t *testing.T) {
	for _, c := range adapter.Codes {
		if c == adapter.NotFound {
			continue
		}
		if w := WayOut(&adapter.Error{Code: c}); strings.TrimSpace(w) == "" {
			t.Errorf("code %s has no way out", c)
		}
	}
}

// TestWayOutOfAccessDeniedSpeaksOfCredentials: a refused token is not a
// machine that belongs to someone else.
func TestWayOutOfAccessDeniedSpeaksOfCredentials(t *testing.T) {
	w := WayOut(&adapter.Error{Code: adapter.AccessDenied})
	if strings.Contains(w, "machine") || !strings.Contains(w, "credentials") {
		t.Errorf("WayOut(AccessDenied) = %q", w)
	}
}

func TestWayOutTellsRetriedFailuresApart(t *testing.T) {
	failed := WayOut(adapter.Errorf(adapter.Transient, "the API failed (HTTP 503 unavailable)"))
	slow := WayOut(adapter.Errorf(adapter.RateLimited, "rate limit exceeded"))
	silent := WayOut(fmt.Errorf("read: %w", &adapter.Error{Code: adapter.Transient, Err: adapter.ErrNoAnswer}))
	if !strings.Contains(failed, "failed") || strings.Contains(failed, "in time") || !strings.Contains(failed, "raise the timeouts") {
		t.Errorf("a failing backend: %q", failed)
	}
	if !strings.Contains(slow, "slow down") || !strings.Contains(slow, "raise the timeouts") {
		t.Errorf("a rate limit: %q", slow)
	}
	if !strings.Contains(silent, "never answered") || !strings.Contains(silent, "endpoint") || strings.Contains(silent, "raise the timeouts") {
		t.Errorf("a silent endpoint: %q", silent)
	}
	past := WayOut(&adapter.Error{Code: adapter.RateLimited, Err: adapter.ErrLimitPastTimeout})
	if !strings.Contains(past, "would not help") || strings.Contains(past, "raise the timeouts") {
		t.Errorf("a rate limit past the timeout: %q", past)
	}
}

// TestPlanWayOutSaysWhatThePlanDid: a plan checks once and leaves retries
// to the apply, so its way out never claims retries until the timeout.
func TestPlanWayOutSaysWhatThePlanDid(t *testing.T) {
	for _, err := range []error{
		adapter.Errorf(adapter.Transient, "the API failed (HTTP 503 unavailable)"),
		adapter.Errorf(adapter.RateLimited, "rate limit exceeded"),
	} {
		got := PlanWayOut(err)
		if strings.Contains(got, "until the timeout") || strings.Contains(got, "raise the timeouts") || !strings.Contains(got, "the apply checks again") {
			t.Errorf("PlanWayOut(%v) = %q: want what the plan did (once) and that the apply checks again", err, got)
		}
	}
	if got, want := PlanWayOut(adapter.Errorf(adapter.QuotaExceeded, "limit")), WayOut(adapter.Errorf(adapter.QuotaExceeded, "limit")); got != want {
		t.Errorf("PlanWayOut(QuotaExceeded) = %q, want WayOut's %q", got, want)
	}
}
