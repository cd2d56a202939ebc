package marks

import (
	"regexp"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Next is the mark an Update writes when its request carries req (rule 9,
// updates and the mark): req's key, fingerprint and flag, and req's claim
// when it has one, else the claim cur, the machine's mark, has, so a
// rename's mark keeps the claim.
func Next(cur, req adapter.Mark) adapter.Mark {
	if req.Claim == "" {
		req.Claim = cur.Claim
	}
	return req
}

// Of is the mark m carries, as Stamp set it.
func Of(m adapter.Machine) adapter.Mark {
	return adapter.Mark{Key: m.Key, Fingerprint: m.Fingerprint, Claim: m.Claim, Unconfirmed: m.Unconfirmed}
}

// Stamp sets what m carries of its mark, as Read gave it.
func Stamp(m *adapter.Machine, managed bool, mark adapter.Mark) {
	m.Managed = managed
	m.Key, m.Fingerprint, m.Claim, m.Unconfirmed = mark.Key, mark.Fingerprint, mark.Claim, mark.Unconfirmed
}

var claimShape = regexp.MustCompile(`^[0-9a-f]{32}$`)

// IsClaim reports whether s has the shape adapter.NewClaimAt gives a claim
// (32 lower-case hex digits), which fits every backend's labels, tags and
// names.
func IsClaim(s string) bool { return claimShape.MatchString(s) }
