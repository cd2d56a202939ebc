package tflist

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// filter is the configured filters, compiled once per read. Unset filters
// keep every machine.
type filter struct {
	managed *bool
	prefix  string
	regex   *regexp.Regexp
	labels  map[string]string
	states  map[adapter.State]bool
}

func newFilter(ctx context.Context, m *Filters) (filter, diag.Diagnostics) {
	var f filter
	var diags diag.Diagnostics
	if !m.Managed.IsNull() {
		v := m.Managed.ValueBool()
		f.managed = &v
	}
	f.prefix = m.NamePrefix.ValueString()
	if m.NameRegex.ValueString() != "" {
		// The validator has compiled it already.
		f.regex = regexp.MustCompile(m.NameRegex.ValueString())
	}
	if !m.Labels.IsNull() {
		diags.Append(m.Labels.ElementsAs(ctx, &f.labels, false)...)
	}
	if m.States != nil {
		f.states = map[adapter.State]bool{}
		for _, n := range m.States {
			f.states[adapter.State(n)] = true
		}
	}
	return f, diags
}

func (f filter) keep(m adapter.Machine) bool {
	switch {
	case f.managed != nil && m.Managed != *f.managed,
		!strings.HasPrefix(m.Name, f.prefix),
		f.regex != nil && !f.regex.MatchString(m.Name),
		f.states != nil && !f.states[m.State]:
		return false
	}
	for k, v := range f.labels {
		if got, ok := m.Labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// Found is a machine with the account it was listed from.
type Found struct {
	adapter.Machine
	Account  string // as listed in accounts
	ImportID string // ACCOUNT_ID/MACHINE_ID, what an import of it takes
}

// sortMachines orders by account, name and machine id: a total order, so
// the list never depends on the order a backend answers in.
func sortMachines(all []Found) {
	slices.SortFunc(all, func(a, b Found) int {
		return cmp.Or(cmp.Compare(a.Account, b.Account), cmp.Compare(a.Name, b.Name), compareIDs(a.ID, b.ID))
	})
}

// compareIDs puts numeric ids in numeric order (9 before 10), which is
// how backends that number their machines show them.
func compareIDs(a, b string) int {
	if isDigits(a) && isDigits(b) {
		x, y := strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
		return cmp.Or(cmp.Compare(len(x), len(y)), cmp.Compare(x, y), cmp.Compare(a, b))
	}
	return cmp.Compare(a, b)
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
