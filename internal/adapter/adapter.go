package adapter

import "context"

// Adapter is what every backend offers. Optional abilities are separate
// interfaces (Powerer, Updater, Lister, Inventory, Checker, WriteChecker,
// Validator, Rescuer, Identifier, Bootstrapper), declared once, in the
// Definition's Capabilities, so the Terraform layer can refuse at plan time
// what a backend cannot do instead of failing half-way through an apply.
// Registry.Open checks that the adapter implements what is declared.
type Adapter interface {
	// Kind names the adapter, e.g. "hcloud".
	Kind() string
	// ListOffers returns the offers matching q, [] for an impossible query.
	ListOffers(ctx context.Context, q Query) ([]Offer, error)
	// Create is idempotent by call.IdempotencyKey: it looks the key up
	// first, and after a failed create looks again (CreateFlow). A machine found by key is
	// adopted when Adoptable allows it, and then carries call.Claim; a new
	// machine carries key, fingerprint and claim from the create call
	// itself, unconfirmed. The machine returned has Adopted set when it was
	// found. Nothing is written onto a machine Adoptable refuses.
	Create(ctx context.Context, call Call, req CreateRequest) (Machine, error)
	// Get returns the machine, or an error with code NotFound only when the
	// backend proved that it does not exist.
	Get(ctx context.Context, id string) (Machine, error)
	// Delete removes a managed machine and returns once the backend accepted
	// the deletion; an already-gone machine is NotFound. Unmarked machines are
	// refused with AccessDenied.
	Delete(ctx context.Context, id string) error
}

// PowerAction is what Powerer.Power does. The values are the names the
// Terraform layer shows (available_actions); power.go has the graceful ones.
type PowerAction string

// The hard switch, which every Powerer offers.
const (
	PowerOn  PowerAction = "power_on"
	PowerOff PowerAction = "power_off"
)

// Powerer switches a managed machine on or off, and does the other power
// actions its capabilities offer (see Capabilities.Offers).
type Powerer interface {
	Power(ctx context.Context, id string, action PowerAction) error
}

// UpdateRequest changes what can change in place. Nil fields are left alone.
// Labels are the user's labels: the adapter keeps its own marks beside them.
// Mark, when set, writes the mark: onto a machine that has none, which is
// how an imported machine becomes managed (and claimed) on its first apply,
// or over the mark of a renamed one, whose key follows its name. Its key and
// fingerprint replace the machine's; its claim replaces the machine's only
// when it is not empty, so a rename's Mark, which carries none, keeps the
// claim. Without Mark an Update refuses a machine without the managed mark.
// See rules 8 (only marked machines are changed) and 9 (updates and the
// mark) in the package documentation.
//
// Current, when set, is the machine as the caller has just read it directly
// (never a listing's copy): the adapter builds its write from it and reads
// nothing first, so an update costs one write. Without it the adapter reads
// the machine itself.
type UpdateRequest struct {
	Name    *string
	Labels  map[string]string
	Mark    *Mark
	Current *Machine
}

// Mark is what an adapter writes onto every machine it manages: the create
// key, the request's fingerprint and the claim of the state that holds it.
//
// Unconfirmed is set on the mark a create writes (made or adopted), and
// cleared by the first refresh of the state that holds the claim (see
// Cached.Confirm). Each adapter stores it as a flag whose absence means
// confirmed, so a mark written before the flag existed reads as confirmed:
// such a machine is never adopted by another state, which refuses nothing
// a state already had (its holder reads, changes and deletes it as before)
// and costs an interrupted apply run across an upgrade an import at worst.
// An update's mark (an import's, a rename's) is confirmed: it is written
// by an apply of a state that already holds the machine.
type Mark struct {
	Key         string
	Fingerprint string
	Claim       string
	Unconfirmed bool
}

// Updater changes name and labels in place and returns the machine as the
// backend answered the write, so the caller needs no read-back.
type Updater interface {
	Update(ctx context.Context, id string, req UpdateRequest) (Machine, error)
}

// Lister lists the managed machines of the account, complete or not at all:
// a partial listing is an error, never a shorter list.
type Lister interface {
	List(ctx context.Context) ([]Machine, error)
}

// Inventory lists every machine of the account, managed or not (Machine.Managed
// tells which), with the same normalized and raw state as Get, complete or
// not at all: a partial listing is an error, never a shorter list, since a
// missing machine would read as one that does not exist. It is what lets a
// fleet the provider did not create be found and imported; it never changes
// a machine, marked or not.
type Inventory interface {
	Inventory(ctx context.Context) ([]Machine, error)
}

// Checker runs one cheap authenticated call to prove the account works:
// the backend answers, the credentials are accepted, the settings are
// right. Every plan and refresh runs it, so it only reads.
type Checker interface {
	Check(ctx context.Context) error
}

// WriteChecker proves that the account's credentials may create machines,
// which a read-only credential passes every read of Check without. It
// changes nothing, but may send a write that changes nothing (a request
// the backend refuses for a read-only credential and answers not found for
// any other), so it is apart from Check: only the apply of an account
// (create, update) runs it, after Check passed, and plans and refreshes
// never send that write. A refusal is AccessDenied with Field naming the
// credential's setting; the backend was reached all the same. An adapter
// whose backend has no such harmless write does not implement it, and a
// read-only credential then shows at the first create.
//
// It is a second method rather than a parameter of Check because the two
// answer different questions (is the backend there; may these credentials
// write), which health reports apart, and because most callers and some
// backends only have the first.
type WriteChecker interface {
	CheckWrite(ctx context.Context) error
}

// Validator checks a create request against the catalog before anything is
// created. Errors are InvalidInput with Field naming the request field
// ("offer_id", "image", "location") and a message that lists valid values.
type Validator interface {
	Validate(ctx context.Context, req CreateRequest) error
}
