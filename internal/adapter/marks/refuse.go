package marks

import (
	"errors"
	"regexp"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// ErrUnmarked is what a refusal of a machine without the managed mark
// wraps, for errors.Is.
var ErrUnmarked = errors.New("the machine carries no mark of the provider")

// Unmarked names a machine without the managed mark for the one refusal
// every adapter gives before it deletes, powers, changes or boots a
// machine (rule 8, only marked machines are changed, of internal/adapter's
// package documentation).
type Unmarked struct {
	// What is the call refused, as the adapter's messages name it
	// ("delete VM 100").
	What string
	// Machine names the machine as the adapter's messages do
	// (`VM 100 ("web")`).
	Machine string
	// ID is the machine's id, as an import takes it.
	ID string
	// Lacks says what the machine lacks, in the backend's terms
	// (`is not tagged "compute"`).
	Lacks string
	// WayOut, when set, is one more way out after the import
	// (`or tag it "compute" in PVE if the provider created it`).
	WayOut string
}

// Refuse is the AccessDenied error for u: it names the call, the machine
// and its id, says why it is left alone and how to manage it, and wraps
// ErrUnmarked.
func (u Unmarked) Refuse() *adapter.Error {
	msg := u.What + ": " + u.Machine + " " + u.Lacks + ", so it is not managed by the provider and is left alone; " +
		"to manage it, import it (`terraform import`, or an import block with id " + u.ID + "), after which the next apply marks it"
	if u.WayOut != "" {
		msg += ", " + u.WayOut
	}
	return &adapter.Error{Code: adapter.AccessDenied, Err: ErrUnmarked, Message: msg}
}

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
