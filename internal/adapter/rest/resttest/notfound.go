package resttest

import (
	"slices"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// NotFoundCodes are the codes table places as adapter.NotFound, sorted: the
// API's proof of absence that a fuzz target hands adaptertest.CodedNotFound,
// so that the API's not-found code is spelled once, in the table.
func NotFoundCodes(table rest.Codes) []string {
	var out []string
	for code, c := range table.Codes {
		if c == adapter.NotFound {
			out = append(out, code)
		}
	}
	slices.Sort(out)
	return out
}
