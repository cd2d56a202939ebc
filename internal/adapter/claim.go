package adapter

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
)

// A claim says which Terraform state holds a machine. It is a random token,
// new for every create, written onto the machine in the create call itself
// (beside the idempotency key and the fingerprint) and kept in the state that
// made it. The key finds the machine again after an interrupted apply; the
// claim tells the states apart:
//
//   - A create that finds a machine by key adopts it when the fingerprint
//     matches and writes its own claim over the old one. That is how a rerun
//     after a SIGKILL (whose state never received the machine) takes the
//     machine back without an import, and it is also what happens when a
//     second configuration with the same account and name applies: the
//     machine then has one holder, the latest.
//   - A state whose claim is no longer on the machine has lost its hold: it
//     is told on its next refresh and from then on never deletes, powers or
//     changes the machine.
//   - A replacement created before the old machine is destroyed
//     (create_before_destroy) under the same name derives the same key, and
//     its create adopts the old machine. Terraform tells a provider nothing
//     of the object a create replaces by the time the create runs, so this
//     is caught where it can be: the old object's delete, in the same
//     provider process, finds its machine adopted by that process
//     (Cached.AdoptedHere) and fails with the way out instead of deleting or
//     forgetting it. Nothing is destroyed; the new object holds the machine.
//
// Claims are not secrets: they prove nothing to the backend, they only keep
// honest states from stepping on each other.

// NewClaim returns a fresh claim: 32 lower-case hex digits, safe as a label
// value, a name suffix or a description line on every backend.
func NewClaim() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand does not fail on the platforms Terraform runs on.
		panic(fmt.Sprintf("read random claim: %v", err))
	}
	return hex.EncodeToString(b)
}

// Adoptable decides whether Create may adopt m, a machine it found carrying
// the create's idempotency key, for a request whose fingerprint is
// fingerprint. Every adapter asks it, so the rule is the same everywhere:
// nil means adopt (and write the create's claim onto the machine); otherwise
// the error says why not and what to do. what names the operation for the
// message.
func Adoptable(what string, m Machine, fingerprint string) error {
	switch {
	case !m.Managed:
		return Errorf(Conflict,
			"%s: machine %s (%q) carries this resource's key but not the managed mark, so it is not taken over; import it to manage "+
				"it (`terraform import` or an import block with its id %s), or choose another name", what, m.ID, m.Name, m.ID).WithField(FieldName)
	case m.State == StateDeleting:
		return Errorf(Transient, "%s: machine %s (%q), created earlier for this resource, is still being deleted; the create can go ahead once it is gone", what, m.ID, m.Name)
	case m.Fingerprint != fingerprint:
		return Errorf(Conflict,
			"%s: machine %s (%q) carries this instance's key (account and name) but was created with other settings (its fingerprint %s, "+
				"this request's %s: offer, image, location or user data differ). It is not taken over. If this is a replacement created "+
				"before the old machine is destroyed (create_before_destroy) under the same name, give the replacement another name or "+
				"remove create_before_destroy; if another configuration holds that machine, give this instance another name; if an "+
				"interrupted apply created it and the settings changed since, restore them, or delete that machine yourself once you "+
				"are sure no state holds it", what, m.ID, m.Name, m.Fingerprint, fingerprint).WithField(FieldName)
	}
	return nil
}

// Held reports whether claim, the one a state keeps, still holds m. A
// machine without a claim (imported and not yet marked, or marked before
// claims existed) is held by whichever state refers to it: the managed mark
// alone guards it. A state without a claim holds only such a machine, so it
// never acts on one another state has claimed.
func Held(m Machine, claim string) bool {
	return m.Claim == "" || m.Claim == claim
}

// ErrLostHold is what a LostHold error wraps, for errors.Is.
var ErrLostHold = errors.New("the machine is held by another Terraform state")

// SelfAdopted is the error for a machine whose state object finds it adopted
// by a create of the same run: create_before_destroy under the same name.
func SelfAdopted(id, name string) *Error {
	return &Error{Code: Conflict, Field: FieldName, Err: ErrLostHold, Message: fmt.Sprintf(
		"machine %s (%q) was not destroyed: the instance that replaces it was created before it (create_before_destroy) "+
			"under the same name, so it carries the same key, and its create took this machine over instead of making a second "+
			"one. The new instance holds machine %s now, unchanged, and this old object stays in the state until the next apply "+
			"forgets it. To get a new machine, give the replacement another name (a suffix that changes with what forces the "+
			"replacement), or remove create_before_destroy so the old machine is destroyed first", id, name, id)}
}

// LostHold is the error for a machine another state has taken over since
// this state created or adopted it. Its message carries the way out.
func LostHold(id, name string) *Error {
	return &Error{Code: Conflict, Err: ErrLostHold, Message: fmt.Sprintf(
		"machine %s (%q) is now held by another Terraform state: a create with the same account and name (another configuration, "+
			"or a rerun that lost this state) adopted it and wrote its own claim over this state's. This state no longer deletes, "+
			"powers or changes it. Remove the resource from this configuration and run `terraform state rm` on it; to manage the machine "+
			"from here again, first remove it from the state that holds it now (`terraform state rm` there), then import it here: an "+
			"import takes the machine's claim, and two states that both import it would both act on it", id, name)}
}
