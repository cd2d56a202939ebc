package marks_test

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
)

// The labels' refusal names the managed label the machine lacks.
func TestLabelsRefusalNamesTheLabel(t *testing.T) {
	lab := marks.Default.Refuse("delete", `server 5 ("a")`, "5")
	if !strings.Contains(lab.Message, `server 5 ("a") carries no compute.seedcompute.io/managed label`) || strings.HasSuffix(lab.Message, ", ") {
		t.Errorf("labels' refusal: %s", lab.Message)
	}
}

// An update's mark replaces key, fingerprint and flag, and keeps the
// machine's claim when it brings none (rule 9).
func TestNextKeepsTheClaimOfARename(t *testing.T) {
	cur := adapter.Mark{Key: "old", Fingerprint: "f0", Claim: "c0", Unconfirmed: true}
	if got := marks.Next(cur, adapter.Mark{Key: "new", Fingerprint: "f1"}); got != (adapter.Mark{Key: "new", Fingerprint: "f1", Claim: "c0"}) {
		t.Errorf("rename's mark: %+v", got)
	}
	if got := marks.Next(cur, adapter.Mark{Key: "new", Fingerprint: "f1", Claim: "c1"}); got.Claim != "c1" {
		t.Errorf("a mark with a claim: %+v", got)
	}
}

func TestIsClaim(t *testing.T) {
	if !marks.IsClaim(adapter.NewClaim()) {
		t.Error("a fresh claim")
	}
	for _, s := range []string{"", strings.Repeat("A", 32), strings.Repeat("a", 31), strings.Repeat("a", 33), strings.Repeat("g", 32)} {
		if marks.IsClaim(s) {
			t.Errorf("%q is no claim", s)
		}
	}
}
