// Package tfvalidate holds the attribute validators that more than one
// Terraform-layer package needs, with messages that name the attribute, the
// value and what to write instead (the framework's stock validators name
// only the first two).
//
// It imports internal/adapter and the plugin framework's validator and
// types packages, never a concrete adapter.
package tfvalidate

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Accounts checks a data source's accounts list: it refuses an empty list,
// empty ids and an id listed twice, which would list everything of that
// account twice. Ids that are still unknown are checked when Read sees
// them, which also finds one account under two spellings of its id.
type Accounts struct {
	// Summary heads the diagnostics: "Unable to use compute_offers argument".
	Summary string
	// What is what the data source lists, "offers", for the message of an
	// id listed twice.
	What string
}

var _ validator.List = Accounts{}

func (Accounts) Description(context.Context) string {
	return "at least one account id, each listed once"
}

func (c Accounts) MarkdownDescription(ctx context.Context) string { return c.Description(ctx) }

func (c Accounts) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	elems := req.ConfigValue.Elements()
	if len(elems) == 0 {
		resp.Diagnostics.AddAttributeError(req.Path, c.Summary,
			"accounts is empty: list the id of at least one compute_provider_account, e.g. accounts = [compute_provider_account.cloud.id].")
		return
	}
	seen := map[string]int{}
	for i, v := range elems {
		s, ok := v.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		p := req.Path.AtListIndex(i)
		id := s.ValueString()
		if id == "" {
			resp.Diagnostics.AddAttributeError(p, c.Summary, fmt.Sprintf(
				"accounts[%d] is an empty string; use the id attribute of a compute_provider_account, e.g. compute_provider_account.cloud.id.", i))
			continue
		}
		if first, dup := seen[id]; dup {
			// Redacted: a secret pasted into an id must not be printed back.
			resp.Diagnostics.AddAttributeError(p, c.Summary, fmt.Sprintf(
				"accounts[%d] repeats accounts[%d] (%s); list each account once, or its %s appear twice.", i, first, adapter.RedactID(id), c.What))
			continue
		}
		seen[id] = i
	}
}
