package offers

import (
	"fmt"
	"slices"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestSortOffersIsTotal: whatever order the accounts answer in, the merged
// list comes out the same, down to offers that differ only in location.
func TestSortOffersIsTotal(t *testing.T) {
	offers := []found{
		{Offer: adapter.Offer{ID: "cx22", Location: "nbg1", PricePerHour: 0.01}, account: "a"},
		{Offer: adapter.Offer{ID: "cx22", Location: "fsn1", PricePerHour: 0.01}, account: "a"},
		{Offer: adapter.Offer{ID: "cx22", Location: "fsn1", PricePerHour: 0.01}, account: "b"},
		{Offer: adapter.Offer{ID: "ax41", Location: "fsn1"}, account: "a"},
		{Offer: adapter.Offer{ID: "cx11", Location: "fsn1", PricePerHour: 0.02}, account: "a"},
		{Offer: adapter.Offer{ID: "cax11", Location: "fsn1", PricePerHour: 0.01}, account: "b"},
	}
	key := func(o found) string {
		return fmt.Sprint(o.PricePerHour) + " " + o.ID + " " + o.account + " " + o.Location
	}
	var want []string
	for i := range offers {
		shuffled := append(slices.Clone(offers[i:]), offers[:i]...)
		slices.Reverse(shuffled[1:])
		sortOffers(shuffled)
		var got []string
		for _, o := range shuffled {
			got = append(got, key(o))
		}
		if want == nil {
			want = got
			continue
		}
		if !slices.Equal(got, want) {
			t.Fatalf("order depends on the input order:\n got %q\nwant %q", got, want)
		}
	}
	if want[0] != "0.01 cax11 b fsn1" || want[len(want)-1] != "0 ax41 a fsn1" {
		t.Errorf("cheapest first, unpriced last: %q", want)
	}
}
