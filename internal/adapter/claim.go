package adapter

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// A claim says which Terraform state holds a machine. It is a token, new
// for every create, written onto the machine in the create call itself
// (beside the idempotency key and the fingerprint) and kept in the state that
// made it. The key finds the machine again after an interrupted apply; the
// claim tells the states apart:
//
//   - A create writes its claim unconfirmed: the state it runs for may never
//     have received the machine (Terraform persists state during an apply
//     only now and then, and a SIGKILL loses what it had not yet written).
//     The first refresh of the state that holds the claim confirms it
//     (Cached.Confirm): that state has the machine for good.
//   - A create that finds a machine by key adopts it (Adoptable) only while
//     its claim is unconfirmed and within RecoveryWindow of the create that
//     wrote it, and then writes its own claim, unconfirmed too. That is how a
//     rerun after a SIGKILL takes its machine back without an import. A
//     confirmed machine, or one past the window, is refused with a Conflict
//     before anything is written: a second state (another workspace or
//     directory with the same account and name) never takes a machine its
//     holder has seen again.
//   - The first apply after an import writes its claim unconfirmed too, and
//     its rerun after a kill, whose state has no claim yet, takes the
//     machine up again under the same rule and window (Resumable).
//   - A state whose claim is no longer on the machine has lost its hold: it
//     is told on its next refresh and from then on never deletes, powers or
//     changes the machine.
//   - A replacement created before the old machine is destroyed
//     (create_before_destroy) under the same name derives the same key, and
//     its create adopts the old machine when its claim is still
//     unconfirmed. Terraform tells a provider nothing of the object a create
//     replaces by the time the create runs, so this is caught where it can
//     be: the old object's delete, in the same provider process, finds its
//     machine adopted by that process (Cached.AdoptedHere) and fails with
//     the way out instead of deleting or forgetting it. Nothing is destroyed;
//     the new object holds the machine.
//
// Claims are not secrets: they prove nothing to the backend, they only keep
// honest states from stepping on each other.

// NewClaim returns a fresh claim made now; see NewClaimAt.
func NewClaim() string { return NewClaimAt(time.Now()) }

// NewClaimAt returns a fresh claim made at t: 32 lower-case hex digits, safe
// as a label value, a name suffix or a description line on every backend.
// The first 8 digits are t in Unix seconds, the other 24 are random (96
// bits, as unlikely to repeat as any two creates need). The time is what
// the recovery window (Adoptable) is measured from, so every backend has
// it wherever it stores the claim, even one with no room for more (a
// Robot server name).
func NewClaimAt(t time.Time) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b[4:]); err != nil {
		// crypto/rand does not fail on the platforms Terraform runs on.
		panic(fmt.Sprintf("read random claim: %v", err))
	}
	binary.BigEndian.PutUint32(b[:4], uint32(max(t.Unix(), 0)))
	return hex.EncodeToString(b)
}

// ClaimTime is when claim was made, as NewClaimAt wrote it. It is only
// asked of a claim that is not confirmed, which only this version of the
// provider writes; a claim of an older version is random through and
// through, but its machine carries no unconfirmed mark, so its time is
// never read.
func ClaimTime(claim string) (time.Time, bool) {
	if len(claim) != 32 {
		return time.Time{}, false
	}
	b, err := hex.DecodeString(claim[:8])
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(int64(binary.BigEndian.Uint32(b)), 0), true
}

// Held reports whether claim, the one a state keeps, still holds m. A
// machine without a claim (imported and not yet marked, or marked before
// claims existed) is held by whichever state refers to it: the managed mark
// alone guards it. A state without a claim holds only such a machine; the
// one exception is the update that writes its first claim, which takes up a
// Resumable machine of its own key, never a delete or an action.
func Held(m Machine, claim string) bool {
	return m.Claim == "" || m.Claim == claim
}

// Resumable reports whether a state without a claim takes up m all the same:
// m carries an unconfirmed claim made within RecoveryWindow of now. The
// first apply after an import marks the machine with a new claim, written
// unconfirmed as a create's is; an apply killed after that write and before
// its state was saved leaves the state without a claim and the machine with
// one. Its rerun takes the machine up again and writes a claim of its own,
// as the rerun of a create adopts its machine (Adoptable), so the same rule
// and window hold: a confirmed claim, or one past the window, is another
// state's, and the machine stays lost to this one.
func Resumable(m Machine, claim string, now time.Time) bool {
	return claim == "" && m.Claim != "" && m.Managed && m.Unconfirmed && withinRecovery(m.Claim, now)
}

// ResumesAs reports whether the update that writes a state's first claim,
// under the create key key, takes up m: m is Resumable and its mark carries
// the same key, as a create's rerun adopts only a machine of its own key. A
// refresh asks Resumable alone, since it knows no configured name; the
// update refuses what it may not take.
func ResumesAs(m Machine, claim, key string, now time.Time) bool {
	return Resumable(m, claim, now) && m.Key == key
}

// UnsavedClaim is the refusal to delete (or release: done) a machine a
// state without a claim finds Resumable: the claim on it may be this
// configuration's own interrupted first apply after an import, or another
// state's, so it is neither deleted nor forgotten.
func UnsavedClaim(id, name, done string) *Error {
	return Errorf(Conflict, "machine %s (%q) carries a claim written within the hour by an apply whose state was not saved: "+
		"this configuration's own first apply after the import, interrupted, or another state's. It was not %s. Run terraform "+
		"apply first, which marks it for this state, then destroy it; if another state holds it, run terraform state rm here "+
		"instead", id, name, done)
}

// withinRecovery reports whether claim was made within RecoveryWindow of
// now, either way (the clocks of two machines disagree).
func withinRecovery(claim string, now time.Time) bool {
	made, ok := ClaimTime(claim)
	age := now.Sub(made)
	return ok && age <= RecoveryWindow && age >= -RecoveryWindow
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
// account names the account as messages do (Registry.Label); "" reads "its
// account".
func LostHold(id, name, account string) *Error {
	on := "its account"
	if account != "" {
		on = "account " + account
	}
	return &Error{Code: Conflict, Err: ErrLostHold, Message: fmt.Sprintf(
		"machine %s (%q) on %s is now held by another Terraform state: a create with the same account and name, or the first apply "+
			"after an import of it (another configuration, or a rerun that lost this state), took it over and wrote its own claim over this state's. This state no longer deletes, "+
			"powers or changes it. Remove the resource from this configuration and run `terraform state rm` on it; to manage the machine "+
			"from here again, first remove it from the state that holds it now (`terraform state rm` there), then import it here: an "+
			"import takes the machine's claim, and two states that both import it would both act on it", id, name, on)}
}
