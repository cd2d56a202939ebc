package proxmox

import (
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
)

// The mark is written in the description, in the clone call itself
// (descMark):
//
//	compute-managed: v1
//	compute-key: <32 hex>
//	compute-fingerprint: <32 hex>
//	compute-claim: <32 hex>
//	compute-unconfirmed: true   (only until the claim is confirmed)
//
// after the user's own text, which every write keeps. cluster/resources
// carries tags but not descriptions, so the tags mirror what a listing
// needs (tagMark): tagManaged (the managed mark for delete and power),
// cm-c-<claim>, tagUnconfirmed beside the unconfirmed line (the refresh
// that confirms a claim reads a listing), and, until the first successful
// start, tagNew. The description is what a create's adoption reads; an
// absent unconfirmed line means confirmed, as on a VM marked before it
// existed. Both are the spellings released versions wrote, kept so their
// VMs stay managed (see internal/adapter/marks).
const (
	tagManaged = "compute"
	tagNew     = "cm-new"
	// tagUnconfirmed mirrors the unconfirmed line for listings.
	tagUnconfirmed = "cm-unconfirmed"
)

var (
	descMark = marks.Text{Prefix: "compute-", ManagedValue: "v1"}
	tagMark  = validTags(marks.Tags{Managed: tagManaged, ClaimPrefix: "cm-c-", Unconfirmed: tagUnconfirmed, Own: []string{tagNew}})
)

// validTags is t, checked when the package starts: a tag outside PVE's
// charset would be refused by every write of a mark, so it stops the
// provider at once rather than at the first create.
func validTags(t marks.Tags) marks.Tags {
	if !t.Valid() {
		panic("proxmox: a tag of the mark is outside PVE's charset")
	}
	return t
}

// withMark is the description user's text followed by the mark's block.
func withMark(user string, m adapter.Mark) string { return descMark.Put(user, m) }

// tagSet reads PVE's tag list, joined by ';' (also ',' or spaces in older
// writes).
func tagSet(s string) []string { return marks.SplitTags(s) }

// claimTag is the claim the tags mirror, or "".
func claimTag(tags []string) string {
	_, m := tagMark.Read(tags)
	return m.Claim
}

// markedTags is tags with ours replaced: the managed tag, the claim's,
// cm-unconfirmed when unconfirmed and, when fresh, cm-new; the user's own
// tags kept, in order.
func markedTags(tags []string, claim string, unconfirmed, fresh bool) string {
	var add []string
	if fresh {
		add = []string{tagNew}
	}
	return strings.Join(tagMark.Put(tags, adapter.Mark{Claim: claim, Unconfirmed: unconfirmed}, add...), ";")
}

// unmarked is the refusal of a VM without tagManaged (adapter.Unmarked);
// verb names the call ("delete").
func unmarked(verb string, r resource) error {
	return adapter.Unmarked{What: verb, Machine: describe(r), ID: r.id(), Lacks: tagMark.Lacks(),
		WayOut: "or tag it " + strconv.Quote(tagManaged) + " in PVE if the provider created it"}.Refuse()
}
