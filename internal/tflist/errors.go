package tflist

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// addListError reports a failed inventory of one account on its list index,
// with the way out for it.
func addListError(ctx context.Context, diags *diag.Diagnostics, t target, err error, query bool) {
	p := path.Root("accounts").AtListIndex(t.index)
	at := func(string) (path.Path, bool) { return p, true }
	detail := tfdiag.ListStopped(ctx, err, "machines", "compute_machines", t.shown)
	if detail == "" {
		wayOut := tfdiag.ListWayOut
		if query {
			wayOut = tfdiag.QueryWayOut
		}
		detail = fmt.Sprintf("Listing the machines of account %s failed. %s", t.shown, wayOut(err, t.endpoint))
	}
	tfdiag.AddError(diags, at, summary, detail, err)
}
