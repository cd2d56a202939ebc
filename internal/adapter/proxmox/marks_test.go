package proxmox

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A VM marked by a released version carries this description and these
// tags, spelled out here rather than by the code under test: it must stay
// ours, with its whole mark, or its state would be refused and a second
// state could adopt it.
func TestReleasedMarkIsStillOurs(t *testing.T) {
	key, fp, claim := strings.Repeat("a", 32), strings.Repeat("b", 32), strings.Repeat("c", 32)
	managed, m, user := descMark.Read("the ops team's db\n\ncompute-managed: v1\ncompute-key: " + key + "\ncompute-fingerprint: " + fp +
		"\ncompute-claim: " + claim + "\ncompute-unconfirmed: true\n")
	if want := (adapter.Mark{Key: key, Fingerprint: fp, Claim: claim, Unconfirmed: true}); !managed || m != want || user != "the ops team's db" {
		t.Errorf("description read as %v %+v %q", managed, m, user)
	}
	r := resource{VMID: 100, Name: "web", Tags: "db;compute;cm-c-" + claim + ";cm-unconfirmed", Status: statusStopped}
	got := (&account{}).toMachine(r, addresses{})
	if !r.managed() || !got.Managed || got.Claim != claim || !got.Unconfirmed {
		t.Errorf("tags read as %+v", got)
	}
	if !tagMark.Valid() {
		t.Error("a tag of the mark is outside PVE's charset")
	}
}

// The tags a write leaves, in the order released versions wrote them: the
// user's first, then compute, the claim, cm-unconfirmed and cm-new; the
// old mark's tags are replaced, not repeated.
func TestMarkedTagsKeepTheReleasedOrder(t *testing.T) {
	claim := strings.Repeat("c", 32)
	old := []string{"db", "compute", "cm-c-" + strings.Repeat("d", 32), "cm-new"}
	if got, want := markedTags(old, claim, true, true), "db;compute;cm-c-"+claim+";cm-unconfirmed;cm-new"; got != want {
		t.Errorf("tags written %q, want %q", got, want)
	}
	if got, want := markedTags(old, claim, false, false), "db;compute;cm-c-"+claim; got != want {
		t.Errorf("tags written %q, want %q", got, want)
	}
}
