package tflist

import (
	"fmt"
	"slices"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestSortMachinesIsTotal: whatever order the accounts answer in, the list
// comes out the same: by account, name, then machine id in numeric order.
func TestSortMachinesIsTotal(t *testing.T) {
	m := func(account, name, id string) Found {
		return Found{Machine: adapter.Machine{ID: id, Name: name}, Account: account}
	}
	machines := []Found{
		m("b", "web", "7"), m("a", "web", "10"), m("a", "web", "9"), m("a", "db", "11"),
		m("a", "web", "009"), m("a", "api", "x-2"), m("a", "api", "x-10"),
	}
	key := func(f Found) string { return fmt.Sprintf("%s %s %s", f.Account, f.Name, f.ID) }
	var want []string
	for i := range machines {
		shuffled := append(slices.Clone(machines[i:]), machines[:i]...)
		slices.Reverse(shuffled[1:])
		sortMachines(shuffled)
		var got []string
		for _, f := range shuffled {
			got = append(got, key(f))
		}
		if want == nil {
			want = got
			continue
		}
		if !slices.Equal(got, want) {
			t.Fatalf("order depends on the input order:\n got %q\nwant %q", got, want)
		}
	}
	if !slices.Equal(want, []string{"a api x-10", "a api x-2", "a db 11", "a web 009", "a web 9", "a web 10", "b web 7"}) {
		t.Errorf("sorted = %q", want)
	}
}
