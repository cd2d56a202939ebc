package offers

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestListErrorWhenStopped: a listing cut short by Ctrl-C blames the stop,
// not the endpoint; an unreachable backend names the endpoint, found by its
// role whatever the adapter calls it.
func TestListErrorWhenStopped(t *testing.T) {
	def := adapter.Definition{Kind: "fake", Settings: []adapter.Setting{{Name: "api_url", Role: adapter.RoleEndpoint}}}
	loc := adapter.Locator{Kind: "fake", Settings: map[string]string{"api_url": "https://api.example.com"}}
	err := adapter.Errorf(adapter.Transient, "the call was canceled before the API answered")
	p := path.Root("accounts").AtListIndex(0)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var diags diag.Diagnostics
	addListError(ctx, &diags, p, 0, "fake:api_url=x", def, nil, loc, adapter.Query{}, err)
	if got := diags[0].Detail(); !strings.Contains(got, "was interrupted, because the command was stopped") || strings.Contains(got, "reachable") {
		t.Errorf("stopped listing: %s", got)
	}

	diags = nil
	addListError(context.Background(), &diags, p, 0, "fake:api_url=x", def, nil, loc, adapter.Query{}, err)
	if got := diags[0].Detail(); !strings.Contains(got, "check that the account's endpoint https://api.example.com is reachable") {
		t.Errorf("unreachable backend: %s", got)
	}
}
