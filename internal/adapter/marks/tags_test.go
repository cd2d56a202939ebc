package marks_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
)

var pveTags = marks.Tags{Managed: "compute", ClaimPrefix: "cm-c-", Unconfirmed: "cm-unconfirmed", Own: []string{"cm-new"}}

// Put replaces the mark's tags and the backend's own, keeps the user's in
// order, and what it wrote reads back.
func TestTagsPutKeepsTheUsersAndReadsBack(t *testing.T) {
	claim := adapter.NewClaim()
	old := marks.SplitTags("db;compute,cm-c-" + strings.Repeat("1", 32) + " cm-unconfirmed;cm-new;team-a")
	before := slices.Clone(old)
	got := pveTags.Put(old, adapter.Mark{Claim: claim}, "cm-new")
	want := []string{"db", "team-a", "compute", "cm-c-" + claim, "cm-new"}
	if !slices.Equal(got, want) {
		t.Errorf("put %q, want %q", got, want)
	}
	managed, m := pveTags.Read(got)
	if !managed || m.Claim != claim || m.Unconfirmed {
		t.Errorf("read back %v %+v", managed, m)
	}
	if got := pveTags.Put(nil, adapter.Mark{Unconfirmed: true}); !slices.Equal(got, []string{"compute", "cm-unconfirmed"}) {
		t.Errorf("no claim, unconfirmed: %q", got)
	}
	if !slices.Equal(old, before) {
		t.Errorf("Put changed its input: %q", old)
	}
}

// A claim tag whose rest is no claim is none; a list without the managed
// tag is unmarked.
func TestTagsReadTolerates(t *testing.T) {
	managed, m := pveTags.Read([]string{"cm-c-short", "cm-c-" + strings.Repeat("a", 32), "cm-unconfirmed"})
	if managed || m.Claim != strings.Repeat("a", 32) || !m.Unconfirmed {
		t.Errorf("read %v %+v", managed, m)
	}
}

// Every tag the spelling writes is in PVE's charset; '/' and ':' are not.
func TestTagsKeepToTheCharset(t *testing.T) {
	if !pveTags.Valid() {
		t.Error("the Proxmox spelling writes a tag outside PVE's charset")
	}
	bad := pveTags
	bad.ClaimPrefix = "compute.seedcompute.io/claim="
	if bad.Valid() || marks.ValidTag("a:b") || marks.ValidTag("example.com/x") || marks.ValidTag("-a") || !marks.ValidTag("A.b+c_d-1") {
		t.Error("ValidTag")
	}
	if got := pveTags.Lacks(); got != `is not tagged "compute"` {
		t.Errorf("lacks %q", got)
	}
}
