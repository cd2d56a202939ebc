package adapter

import "regexp"

// Over is the mark an Update writes when its request carries m (rule 9,
// updates and the mark): m's key, fingerprint and flag, and m's claim when
// it has one, else the claim cur, the machine's mark, has, so a rename's
// mark keeps the claim.
func (m Mark) Over(cur Mark) Mark {
	if m.Claim == "" {
		m.Claim = cur.Claim
	}
	return m
}

// Mark is the mark m carries, as SetMark set it.
func (m Machine) Mark() Mark {
	return Mark{Key: m.Key, Fingerprint: m.Fingerprint, Claim: m.Claim, Unconfirmed: m.Unconfirmed}
}

// SetMark sets what m carries of its mark, as an adapter read it: whether
// it is managed and the mark's values.
func (m *Machine) SetMark(managed bool, mark Mark) {
	m.Managed = managed
	m.Key, m.Fingerprint, m.Claim, m.Unconfirmed = mark.Key, mark.Fingerprint, mark.Claim, mark.Unconfirmed
}

var claimShape = regexp.MustCompile(`^[0-9a-f]{32}$`)

// IsClaim reports whether s has the shape NewClaimAt gives a claim (32
// lower-case hex digits), which fits every backend's labels, tags and names.
func IsClaim(s string) bool { return claimShape.MatchString(s) }

// Writes is what an Update with r writes over cur, the machine as read:
// the user's labels, r.Labels when set, else cur's, and the mark, cur's or
// r.Mark over it (rule 9, updates and the mark).
func (r UpdateRequest) Writes(cur Machine) (user map[string]string, mark Mark) {
	user, mark = cur.Labels, cur.Mark()
	if r.Mark != nil {
		mark = r.Mark.Over(mark)
	}
	if r.Labels != nil {
		user = r.Labels
	}
	return user, mark
}
