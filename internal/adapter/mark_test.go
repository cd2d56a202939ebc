package adapter_test

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// An update's mark replaces key, fingerprint and flag, and keeps the
// machine's claim when it brings none (rule 9).
func TestOverKeepsTheClaimOfARename(t *testing.T) {
	cur := adapter.Mark{Key: "old", Fingerprint: "f0", Claim: "c0", Unconfirmed: true}
	if got := (adapter.Mark{Key: "new", Fingerprint: "f1"}).Over(cur); got != (adapter.Mark{Key: "new", Fingerprint: "f1", Claim: "c0"}) {
		t.Errorf("rename's mark: %+v", got)
	}
	if got := (adapter.Mark{Key: "new", Fingerprint: "f1", Claim: "c1"}).Over(cur); got.Claim != "c1" {
		t.Errorf("a mark with a claim: %+v", got)
	}
}

func TestIsClaim(t *testing.T) {
	if !adapter.IsClaim(adapter.NewClaim()) {
		t.Error("a fresh claim")
	}
	for _, s := range []string{"", strings.Repeat("A", 32), strings.Repeat("a", 31), strings.Repeat("a", 33), strings.Repeat("g", 32)} {
		if adapter.IsClaim(s) {
			t.Errorf("%q is no claim", s)
		}
	}
}
