package account

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestCheckErrorWhenStopped: a health check cut short by Ctrl-C blames the
// stop, not the endpoint; otherwise the way out names the setting whose
// role is the endpoint, whatever it is called.
func TestCheckErrorWhenStopped(t *testing.T) {
	def := adapter.Definition{Kind: "fake", Settings: []adapter.Setting{{Name: "api_url", Role: adapter.RoleEndpoint}}}
	b := block{kind: "fake", def: def, values: map[string]types.String{"api_url": types.StringValue("https://api.example.com")}}
	err := adapter.Errorf(adapter.Transient, "the call was canceled before the API answered")
	r := &Resource{}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var diags diag.Diagnostics
	r.addCheckError(ctx, &diags, b, adapter.Locator{Kind: "fake"}, "n", "create", err)
	if got := diags[0].Detail(); !strings.Contains(got, "was interrupted before it finished, because the command was stopped") ||
		strings.Contains(got, "reachable") {
		t.Errorf("stopped check: %s", got)
	}

	diags = nil
	r.addCheckError(context.Background(), &diags, b, adapter.Locator{Kind: "fake"}, "n", "create", err)
	if got := diags[0].Detail(); !strings.Contains(got, "Check that fake.api_url (https://api.example.com) is right and reachable") ||
		!strings.Contains(got, "raise timeouts.create") || diags[0].Summary() != "Unable to create provider account" {
		t.Errorf("unreachable backend: %s: %s", diags[0].Summary(), got)
	}
}

// TestCheckErrorUnresolvedWithoutWayOut: an unresolved reference whose class
// has no way out of its own ends the detail with the sentence before it, not
// with a dangling space.
func TestCheckErrorUnresolvedWithoutWayOut(t *testing.T) {
	def := adapter.Definition{Kind: "fake", Settings: []adapter.Setting{{Name: "token", Role: adapter.RoleSecret}}}
	b := block{kind: "fake", def: def, values: map[string]types.String{"token": types.StringValue("env://FAKE_TOKEN")}}
	e := adapter.Errorf(adapter.NotFound, "env://FAKE_TOKEN names no secret")
	e.Err = adapter.ErrUnresolved
	var diags diag.Diagnostics
	(&Resource{}).addCheckError(context.Background(), &diags, b, adapter.Locator{Kind: "fake"}, "n", "create", e)
	if len(diags) == 0 {
		t.Fatal("no diagnostic")
	}
	got := diags[0].Detail()
	if first, _, _ := strings.Cut(got, "\n"); strings.HasSuffix(first, " ") ||
		!strings.Contains(got, `The health check of account "n" (adapter fake) failed.`) {
		t.Errorf("detail: %q", got)
	}
}
