package marks

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Tags spells what a listing needs of the mark as bare tags, for a backend
// whose listings carry tags and nothing else of the mark (Proxmox VE's
// /cluster/resources): the managed tag, the claim and the unconfirmed
// flag. Key and fingerprint do not fit (a tag has no value, and the
// charset is narrow, see ValidTag): they live elsewhere (Text).
type Tags struct {
	// Managed is the tag every managed machine carries.
	Managed string
	// ClaimPrefix begins the tag that holds the claim.
	ClaimPrefix string
	// Unconfirmed is the tag of a machine whose claim is not confirmed.
	Unconfirmed string
	// Own lists the backend's further tags of its own, which Put replaces
	// as it replaces the mark's.
	Own []string
}

// SplitTags reads a tag list written as text, separated by ';', ',' or
// spaces (PVE writes ';', older writes the others).
func SplitTags(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ',' || r == ' ' })
}

// Read reads the mark out of tags: whether the managed tag is there, and
// the claim (a claim tag whose rest is no claim, adapter.IsClaim, is none) and the
// unconfirmed flag, the only fields tags hold.
func (t Tags) Read(tags []string) (managed bool, m adapter.Mark) {
	for _, tag := range tags {
		if c, ok := strings.CutPrefix(tag, t.ClaimPrefix); ok && adapter.IsClaim(c) {
			m.Claim = c
			break
		}
	}
	m.Unconfirmed = slices.Contains(tags, t.Unconfirmed)
	return slices.Contains(tags, t.Managed), m
}

// Put returns tags with the mark's and the backend's own replaced: the
// user's first, in their order, then the managed tag, the claim's when
// there is a claim, the unconfirmed tag while it is, and add, those of the
// backend's own tags the machine is to carry. tags is not changed.
func (t Tags) Put(tags []string, m adapter.Mark, add ...string) []string {
	out := slices.DeleteFunc(slices.Clone(tags), t.ours)
	out = append(out, t.Managed)
	if m.Claim != "" {
		out = append(out, t.ClaimPrefix+m.Claim)
	}
	if m.Unconfirmed {
		out = append(out, t.Unconfirmed)
	}
	return append(out, add...)
}

// ours reports whether tag is the mark's or one of the backend's own.
func (t Tags) ours(tag string) bool {
	return tag == t.Managed || tag == t.Unconfirmed || strings.HasPrefix(tag, t.ClaimPrefix) || slices.Contains(t.Own, tag)
}

// Lacks says what a machine without the managed tag lacks, for Unmarked.
func (t Tags) Lacks() string { return "is not tagged " + strconv.Quote(t.Managed) }

// tagShape is PVE's pve-tag format.
var tagShape = regexp.MustCompile(`(?i)^[a-z0-9_][a-z0-9_\-+.]*$`)

// Valid reports whether every tag Put can write is a ValidTag.
func (t Tags) Valid() bool {
	tags := append([]string{t.Managed, t.Unconfirmed, t.ClaimPrefix + strings.Repeat("0", 32)}, t.Own...)
	return !slices.ContainsFunc(tags, func(s string) bool { return !ValidTag(s) })
}

// ValidTag reports whether s is a tag in PVE's charset (its pve-tag
// format: a letter, digit or '_', then those, '-', '+' or '.'), which a
// Tags spelling must keep to with every claim adapter.IsClaim accepts.
func ValidTag(s string) bool { return tagShape.MatchString(s) }
