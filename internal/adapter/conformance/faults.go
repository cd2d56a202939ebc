package conformance

// Faults is what a target's emulator offers the suite so that every rule is
// proven the same way for every adapter: scripted failures of one contract
// call, revoked credentials, and machines put into the backend's own
// in-between statuses. It uses strings only, so an emulator implements it
// without importing the suite (emulators never import adapters), and an
// emulator that cannot make a fault or a situation says so with an error
// wrapping errors.ErrUnsupported: the case that needs it is skipped, never
// passed. Any other error fails the case, so a misspelt class is caught.
// An emulator built on internal/emulator/faults gets all of them from a
// table of its routes and answers, through internal/emulator/hooks.
type Faults interface {
	// FailNext makes the next n backend requests that op sends on its own
	// route (for Delete the delete request itself, not the read before it)
	// fail as class says; n <= 0 fails every such request until Clear.
	FailNext(op Op, class FaultClass, n int) error
	// Revoke makes the backend refuse the account's credentials on every
	// request until Clear, as when the token is deleted in the console.
	Revoke() error
	// Clear removes every fault and restores the credentials.
	Clear()
	// Stage puts machine id into situation behind the adapter's back and
	// returns the backend's raw status word for it, which Get must report
	// as the machine's RawState.
	Stage(id string, situation Situation) (raw string, err error)
	// Requests counts the API requests the backend has served so far, so a
	// case can tell that a call sent nothing.
	Requests() int
	// Unconsumed returns an error naming each fault set since Clear that
	// no request has met, and the routes the adapter did request: a fault
	// aimed at a route the adapter never calls (the emulator's table names
	// another) proves nothing of the adapter, so a case whose call did not
	// fail as the fault asks reports this first. Nil when every fault was
	// met.
	Unconsumed() error
}

// Op names a contract call whose own request a fault is aimed at.
type Op = string

// The ops.
const (
	OpGet    Op = "get"
	OpList   Op = "list"
	OpCreate Op = "create"
	OpDelete Op = "delete"
	OpPower  Op = "power"
	OpUpdate Op = "update"
	// OpAny aims at every request, whatever sends it.
	OpAny Op = "any"
)

// FaultClass is how a request fails. Each class must reach the Terraform
// layer as the code beside it, and never as NotFound: only the backend's
// proof of absence is absence (rule 3, authoritative absence, of
// internal/adapter's package documentation).
type FaultClass = string

// The classes.
const (
	// FaultServerError: the backend answers with its own internal error
	// (a 5xx). Transient.
	FaultServerError FaultClass = "server_error"
	// FaultRateLimited: the backend refuses for a rate limit and says when
	// to come back, in whatever headers it really uses. RateLimited, with a
	// positive retry-after.
	FaultRateLimited FaultClass = "rate_limited"
	// FaultAuthRefused: the backend refuses the credentials or the call
	// (401/403). AccessDenied.
	FaultAuthRefused FaultClass = "auth_refused"
	// FaultLocked: the backend says the machine is busy with another task.
	// Transient: the lock goes away.
	FaultLocked FaultClass = "locked"
	// FaultHang: the backend takes the request and never answers, until
	// the client gives up; nothing is committed. Transient, within the
	// request's bound.
	FaultHang FaultClass = "hang"
	// FaultDropAfterCommit: the backend commits the request and closes the
	// connection without an answer. Transient, or success where the adapter
	// proves the call took effect (a create found again by its key).
	FaultDropAfterCommit FaultClass = "drop_after_commit"
	// FaultPartialListing: a listing answers its first page and fails a
	// later one (OpList only; the backend must page a listing of two
	// machines). Transient: a partial listing is never a shorter one.
	FaultPartialListing FaultClass = "partial_listing"
)

// Situation is a state a machine passes through that the suite cannot
// reach through the contract alone, or not reliably.
type Situation = string

// The situations, each with what Get must make of it (rule 4, conservative
// states, of internal/adapter's package documentation).
const (
	// SituationProvisioning: created and not yet started the first time.
	// Pending, never stopped.
	SituationProvisioning Situation = "provisioning"
	// SituationUnaddressed: running by the backend's word, but without
	// any address. Never running.
	SituationUnaddressed Situation = "unaddressed"
	// SituationStopping: being switched off. Never stopped before it is.
	SituationStopping Situation = "stopping"
	// SituationDeleting: being deleted. Deleting, and present: never
	// NotFound until it is gone.
	SituationDeleting Situation = "deleting"
	// SituationUnrecognised: a status word the adapter has never seen.
	// Unknown, never a guess.
	SituationUnrecognised Situation = "unrecognised"
)
