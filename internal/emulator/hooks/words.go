package hooks

// The suite's vocabulary (internal/adapter/conformance's Op, FaultClass and
// Situation), spelt out because an emulator never imports it. The suite
// refuses a word it does not know, and so do the hooks, so the two lists
// cannot drift apart without a case failing.

// The ops: the contract calls whose own request a fault is aimed at.
const (
	OpGet    = "get"
	OpList   = "list"
	OpCreate = "create"
	OpDelete = "delete"
	OpPower  = "power"
	OpUpdate = "update"
	// OpAny aims at every request, whatever sends it.
	OpAny = "any"
)

// The classes of failure.
const (
	// ClassServerError: the API's own internal error. From the table.
	ClassServerError = "server_error"
	// ClassRateLimited: a refusal for the rate limit that says when to come
	// back, in the headers or body the API really uses. From the table.
	ClassRateLimited = "rate_limited"
	// ClassAuthRefused: the credentials or the call refused. From the
	// table.
	ClassAuthRefused = "auth_refused"
	// ClassLocked: the machine busy with another task. From the table.
	ClassLocked = "locked"
	// ClassPartialListing: a listing's first page answered and a later one
	// failed. From the table, with its page size.
	ClassPartialListing = "partial_listing"
	// ClassHang: the request held until its client leaves, then never run.
	ClassHang = "hang"
	// ClassDropAfterCommit: the request run, so a write commits, and the
	// connection closed without an answer.
	ClassDropAfterCommit = "drop_after_commit"
	// ClassReset: the connection reset before the API sees the request:
	// nothing commits and no answer comes.
	ClassReset = "reset"
)

// The situations a machine is staged into (conformance.Situation).
const (
	SituationProvisioning = "provisioning"
	SituationUnaddressed  = "unaddressed"
	SituationStopping     = "stopping"
	SituationDeleting     = "deleting"
	SituationUnrecognised = "unrecognised"
)

// Situations are all the situations.
var Situations = []string{SituationProvisioning, SituationUnaddressed, SituationStopping, SituationDeleting, SituationUnrecognised}
