package adapter

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// CreateRequest is what the user asked for. UserData is delivered to the
// machine and never logged, stored or echoed in an error.
type CreateRequest struct {
	Name     string
	OfferID  string
	Image    string
	Location string
	UserData string
	Labels   map[string]string
	// PowerOn false creates the machine without starting it.
	PowerOn bool
	// MachineID and MaxMonthlyPrice are for backends that rent hardware
	// which exists before it is claimed (dedicated servers), and are
	// general to them rather than one backend's: such a rental either
	// names the machine to claim or orders one at a price, which is what
	// compute_bootstrap_host's machine_id and max_monthly_price say
	// without naming a backend. Only that resource sets them, and it
	// refuses an account whose adapter lacks CapBootstrap, so an adapter
	// of virtual machines never sees them.
	//
	// MachineID names the one machine to claim; "" lets the adapter claim
	// a free machine of OfferID, or order one.
	MachineID string
	// MaxMonthlyPrice is the most a machine ordered for this request may
	// cost per month (the offer's PricePerMonth); 0 never orders.
	MaxMonthlyPrice float64
}

// Call carries what every create needs beside the request.
type Call struct {
	// IdempotencyKey identifies the create across retries and across an
	// interrupted apply that is simply run again; see IdempotencyKey.
	IdempotencyKey string
	// Claim is written onto the machine, created or adopted; see NewClaim.
	Claim string
	// Account is how messages name the account the create runs on (the
	// Terraform layer's description of it); see Adoptable.
	Account string
	// KeyAbsent is set by Cached when a complete listing of the account's
	// managed machines, within its TTL and taken while this process had not
	// yet written IdempotencyKey, shows no machine carrying it: the adapter
	// may then skip its own look-up before the create, so concurrent creates
	// share one listing. The look-up after a failed create is never skipped;
	// with it and the backend's own uniqueness rules, a machine that appears
	// after the listing is still found.
	KeyAbsent bool
}

// IdempotencyKey derives the create key from what the user wrote: the
// account's stable scope and the machine's name. It must not depend on
// anything chosen at apply time, so that an apply interrupted after the
// backend committed a create finds that machine when it runs again.
// The result is 32 lower-case hex digits, safe as a label value everywhere.
func IdempotencyKey(scope, name string) string {
	return digest("key", scope, name)
}

// Fingerprint digests the parts of a request that decide what machine it
// makes, so a machine found by key is adopted only when it is the machine
// this request would have created. User data enters only as a digest. A
// MachineID enters only when set, so fingerprints of requests without one
// are those machines already carry.
func Fingerprint(req CreateRequest) string {
	if req.MachineID != "" {
		return digest("fp", req.OfferID, req.Image, req.Location, digest("ud", req.UserData), "machine", req.MachineID)
	}
	return digest("fp", req.OfferID, req.Image, req.Location, digest("ud", req.UserData))
}

func digest(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}
