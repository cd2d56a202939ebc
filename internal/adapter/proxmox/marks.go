package proxmox

import (
	"regexp"
	"slices"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The mark is written in the description, in the clone call itself:
//
//	compute-managed: v1
//	compute-key: <32 hex>
//	compute-fingerprint: <32 hex>
//	compute-claim: <32 hex>
//	compute-unconfirmed: true   (only until the claim is confirmed)
//
// after the user's own text, which every write keeps. cluster/resources
// carries tags but not descriptions, so the tags mirror what a listing
// needs: tagManaged (the managed mark for delete and power), cm-c-<claim>,
// tagUnconfirmed beside the unconfirmed line (the refresh that confirms a
// claim reads a listing), and, until the first successful start, tagNew.
// The description is what a create's adoption reads; an absent
// unconfirmed line means confirmed, as on a VM marked before it existed.
const (
	tagManaged  = "compute"
	tagClaimPfx = "cm-c-"
	tagNew      = "cm-new"
	// tagUnconfirmed mirrors markUnconfirmed for listings.
	tagUnconfirmed = "cm-unconfirmed"
	markPrefix     = "compute-"
	markVersion    = "v1"
	markManaged    = "compute-managed"
	markKey        = "compute-key"
	markFP         = "compute-fingerprint"
	markClaim      = "compute-claim"
	// markUnconfirmed is on a VM whose claim a create wrote and no
	// refresh of its state confirmed yet (see adapter.Adoptable).
	markUnconfirmed = "compute-unconfirmed"
)

var hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)

// parseMark reads the mark out of a description and returns what else the
// description holds, the user's text, as it was.
func parseMark(desc string) (m adapter.Mark, managed bool, user string) {
	var rest []string
	for _, line := range strings.Split(strings.ReplaceAll(desc, "\r\n", "\n"), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || !strings.HasPrefix(k, markPrefix) {
			rest = append(rest, line)
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case markManaged:
			managed = v == markVersion
		case markKey:
			m.Key = v
		case markFP:
			m.Fingerprint = v
		case markClaim:
			m.Claim = v
		case markUnconfirmed:
			m.Unconfirmed = v == "true"
		}
	}
	return m, managed, strings.TrimRight(strings.Join(rest, "\n"), "\n")
}

// withMark is the description user's text followed by the mark's block.
func withMark(user string, m adapter.Mark) string {
	block := markManaged + ": " + markVersion + "\n" + markKey + ": " + m.Key + "\n" + markFP + ": " + m.Fingerprint + "\n" + markClaim + ": " + m.Claim + "\n"
	if m.Unconfirmed {
		block += markUnconfirmed + ": true\n"
	}
	if strings.TrimSpace(user) == "" {
		return block
	}
	return strings.TrimRight(user, "\n") + "\n\n" + block
}

// tagSet reads PVE's tag list, joined by ';' (also ',' or spaces in older
// writes).
func tagSet(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ',' || r == ' ' })
}

// claimTag is the claim the tags mirror, or "".
func claimTag(tags []string) string {
	for _, t := range tags {
		if c, ok := strings.CutPrefix(t, tagClaimPfx); ok && hex32.MatchString(c) {
			return c
		}
	}
	return ""
}

// markedTags is tags with ours replaced: the managed tag, the claim's,
// cm-unconfirmed when unconfirmed and, when fresh, cm-new; the user's own
// tags kept, in order.
func markedTags(tags []string, claim string, unconfirmed, fresh bool) string {
	out := slices.DeleteFunc(slices.Clone(tags), func(t string) bool {
		return t == tagManaged || t == tagNew || t == tagUnconfirmed || strings.HasPrefix(t, tagClaimPfx)
	})
	out = append(out, tagManaged)
	if claim != "" {
		out = append(out, tagClaimPfx+claim)
	}
	if unconfirmed {
		out = append(out, tagUnconfirmed)
	}
	if fresh {
		out = append(out, tagNew)
	}
	return strings.Join(out, ";")
}
