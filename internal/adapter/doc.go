// Package adapter is the contract between the Terraform layer and the backends
// that own machines: the Adapter interface and its optional capabilities, the
// value types (Machine, Offer, Query, CreateRequest, Call), the error codes
// every backend error is classified into, the pure retry policy and the
// waits, the Logger they and the adapters write to (log.go), secret
// references and the redaction of user input in messages, account and
// instance locators, each adapter's rules for names and labels, and claims:
// the token that says which Terraform state holds a machine (claim.go), the
// one adoption decision every adapter makes (Adoptable, hold.go), the create
// algorithm every adapter runs (CreateFlow, createflow.go) and the
// confirmation of a claim by its holder's first refresh (Cached.Confirm).
//
// It imports only the standard library, so both the resource packages above it
// and the concrete adapters below it (internal/adapter/<name>) can depend on it
// without depending on each other.
//
// # Layers
//
// Imports point down only. The resource and data source packages of the
// Terraform layer know this package, never a concrete adapter, a vendor
// client, net/http or an SSH library: what they need to know of a backend is
// in the backend's Definition (its account block, the role of each setting,
// its rules for names, labels and ids, its capabilities), so adding a backend
// touches none of them. internal/provider is the one wiring point: it
// registers each concrete adapter's Definition, and reaches no further into
// it. A concrete adapter (internal/adapter/<name>) imports this package, its
// backend's client and the shared packages beside the contract, never the
// plugin framework or SDK, nor the Terraform layer, nor an emulator outside
// its tests. The shared packages are internal/adapter/rest (the JSON-over-HTTP
// client of the backends that speak net/http), internal/adapter/marks (the
// mark's spellings in labels, tags and text), internal/adapter/sshexec (SSH
// sessions to a machine) and, in tests only, internal/adapter/conformance and
// internal/adapter/adaptertest (what the adapters' tests share, such as an
// instant clock). rest and marks import the standard library and this
// package only (depguard's rest-client-imports-stdlib-and-the-contract-only
// and marks-import-stdlib-and-the-contract-only; rest's tests may also import
// adaptertest and resttest), so any adapter can use them. adaptertest imports
// the same (adaptertest-imports-stdlib-and-the-contract-only);
// internal/adapter/rest/resttest, the classify table test of a backend on
// rest, imports the same and rest
// (resttest-imports-stdlib-the-contract-and-the-client-only). An adapter's
// code outside its tests imports neither (adapters-no-emulator). Hetzner Cloud
// speaks through hcloud-go, never through rest, and shares only the
// contract's wrong-endpoint guards (hcloud-uses-hcloud-go-not-the-rest-client).
// An emulator (internal/emulator/<name>) speaks its API's HTTP and SSH
// dialect and imports neither an adapter nor this package, nor anything of
// Terraform, so a real client works against it unchanged; the emulators share
// internal/emulator/faults (scripted faults and request counts),
// internal/emulator/hooks (the conformance suite's fault hooks, from a table),
// internal/emulator/standalone (how the emulator command starts each),
// internal/emulator/clock (the emulators' clock) and internal/emulator/fleet
// (the servers of an emulated REST API: ids, addresses, settling, a paged
// label listing, Stage; it imports the standard library and faults, hooks
// and clock only: fleet-imports-stdlib-and-the-shared-emulator-pieces-only).
// The depguard rules of .golangci.yml enforce these arrows.
//
// # The rules of the contract
//
// Every adapter keeps the rules below. Each names the cases that prove it:
// those of the conformance suite (internal/adapter/conformance, which every
// adapter's TestConformance runs against its emulator) by their function and,
// quoted, the case's name (which `go test -run` takes with underscores for
// spaces); a few by the test in another package that proves them where the
// suite cannot. The numbers are stable: a comment cites "rule 3 (authoritative
// absence) of internal/adapter's package documentation", and a new rule takes
// the next number.
//
// # Rule 1: idempotent create
//
// Create carries a key (Call.IdempotencyKey), derived from what the user wrote
// (the account's scope and the machine's name, IdempotencyKey) and never from
// a value chosen at apply time, so that an apply interrupted after the backend
// committed a create and simply run again finds that machine. The adapter
// looks the key up before creating, writes the key and the managed mark onto
// the machine in the create call itself, and after a failed create looks
// again and returns the machine that carries the key. CreateFlow is that
// algorithm, kept once. A machine found by key while it is being deleted is
// not taken over: the create fails Transient, or makes a new machine once the
// old one is gone. A call without a key, or whose claim is not one NewClaimAt
// gives (IsClaim), is InvalidInput before any request (CheckCall, which
// CreateFlow runs first).
//
// Proven by createIsIdempotent ("retried create returns the same machine"),
// faultsAreNeverAbsence ("faults are errors, never absence", subtest
// create/drop_after_commit: a create whose answer was lost finds its machine),
// deletingIsNotAdopted ("a machine being deleted is not adopted") and
// malformedCallsAreInvalidInput ("a create call without a key or a claim is
// InvalidInput").
//
// # Rule 2: adoption and holding (claims)
//
// A machine found by key is adopted only when the request's fingerprint
// (offer, image, location, a digest of the user data; Fingerprint) matches the
// one on the machine; otherwise Conflict, naming both fingerprints. A machine
// without the managed mark is never adopted (Conflict). At most one Terraform
// state holds a machine, through the claim written beside the key (see
// NewClaim): a create writes its claim unconfirmed, the holder's first
// refresh confirms it (Cached.Confirm, one write, idempotent), and another
// create with the same key adopts the machine only while its claim is
// unconfirmed and within RecoveryWindow (Adoptable), which is how the rerun
// of an interrupted apply takes its machine back without an import. The
// first apply after an import writes its claim unconfirmed as well, and its
// rerun, whose state has no claim yet, takes up such a claim of its own key
// within the window (Resumable); a delete never does. A
// confirmed machine, or one past the window, is refused with a Conflict
// wrapping ErrHeldElsewhere before anything is written. A state whose claim is
// no longer on its machine has lost its hold (ErrLostHold) and never deletes,
// powers or changes it. Whatever keeps these rules is written in the create
// call itself where the API allows it.
//
// Proven by fingerprintConflict ("same key with another fingerprint is a
// conflict"), unmarkedLeftAlone ("unmarked machines are left alone"),
// adoptionRewritesClaim ("an unconfirmed claim within the window is
// adopted"), confirmedIsRefused ("a confirmed machine is refused, nothing
// written"), pastWindowIsRefused ("an unconfirmed claim past the window is
// refused"), confirmIsIdempotent ("confirming is idempotent") and rescueBoots
// ("a boot into rescue acts only on a held machine"); in the Terraform layer
// by internal/instance's TestSecondStateRefusedOnceTheHolderRefreshed,
// TestSecondStateTakesOverAndTheFirstLetsGo (a state that lost its hold),
// TestInstanceLostStateDoesNotRestart and
// TestReplacementBeforeDestroyKeepsTheName.
//
// # Rule 3: authoritative absence
//
// Get, and every call that names a machine, is NotFound only when the backend
// proved that the machine does not exist. A refused credential, a 5xx, a
// request that never answered, a rate limit, a lock, a lost answer or a
// listing that failed part-way is an error with its own code, never absence:
// the Terraform layer removes a machine from state on NotFound. A machine
// being deleted is present (StateDeleting) until it is gone. An endpoint that
// is not the API (a web page, a proxy's error, a 404 without the API's error
// shape) is never absence either; an answer that cannot be the API's is
// InvalidConfig on the endpoint setting at once. A Lister or Inventory lists
// completely or fails: a partial listing is never a shorter one.
//
// Proven by faultsAreNeverAbsence ("faults are errors, never absence": every
// call under every fault class and under revoked credentials),
// endpointNotTheAPI ("an endpoint that is not the API is never absence"),
// getAndDelete ("get follows and delete removes"), statesAreConservative
// (subtest deleting) and, over arbitrary answers, each adapter's
// FuzzClassify through conformance.FuzzAnswer.
//
// # Rule 4: conservative states
//
// A backend's statuses map onto the State values; the raw status is kept
// beside it (Machine.RawState), and one the adapter does not know is
// StateUnknown, never a guess. A machine is running only with an address. A
// machine created and not yet started is pending, never stopped, and one being
// switched off is not stopped before it is. (Machine.Conclude ends a
// reading with the address rule and rule 8's actions.)
//
// Proven by statesAreConservative ("states are conservative and keep the raw
// status") and createdIsNeverStopped ("a created machine is never stopped
// before it runs"); checkMachine holds every machine any case reads to the
// contract's states, a raw status kept, and running only with an address.
//
// # Rule 5: one classify
//
// Each adapter turns every backend error into one Code through one classify
// function: NotFound, InvalidConfig, InvalidInput, InvalidState, Unsupported,
// AccessDenied, Conflict, RateLimited, QuotaExceeded or Transient; anything it
// cannot place is Transient, so an unknown failure is retried and never taken
// for absence. A RateLimited error carries the backend's positive retry-after
// (Error.RetryAfter). A table test covers every code with bodies shaped as the
// API's description shows them.
//
// Proven by each adapter's TestClassify and FuzzClassify
// (conformance.FuzzAnswer: every failure is an *Error), and by
// faultsAreNeverAbsence (subtests */rate_limited: RateLimited with a
// retry-after above zero; */auth_refused: AccessDenied).
//
// # Rule 6: no secret leaves
//
// Credentials and user data never reach a log line, a diagnostic, state or an
// error string, however the backend fails (backends echo requests, clients
// quote them). Secrets are resolved from their reference on every request and
// kept no longer (see Secrets; every adapter resolves through ResolveField,
// whose errors name the setting and the reference, never the value);
// messages repeat user input only redacted (Redacted). Machine never carries
// user data.
//
// Proven by secretsNeverLeak ("no secret or user data leaves"); Run checks the
// log lines of every case for the target's secrets and the suite's user data.
// Under TF_LOG=TRACE, by internal/provider's TestSecretsNeverLeak and
// TestInputsNeverEchoed.
//
// # Rule 7: honour the context
//
// Every call returns promptly once its context is cancelled (Terraform's
// Ctrl-C and timeouts), as Transient, never NotFound. Every single backend
// request has its own bound, the adapter's default or Env.RequestTimeout when
// set: a backend that takes a request and never answers makes the call fail
// Transient when that bound runs out, not when the caller's context ends. (An
// adapter that sends such a request once more waits one bound again, and its
// error then wraps ErrNoAnswer.)
//
// Proven by callsReturnOnCancel ("every call returns promptly on cancel") and
// faultsAreNeverAbsence (subtests */hang, run with Env.RequestTimeout short
// and a long context).
//
// # Rule 8: only marked machines are changed
//
// Delete, Power, Update and Rescue read the machine first (Update may take the
// caller's own direct read instead, UpdateRequest.Current) and refuse one
// without the managed mark with AccessDenied, naming its id, before anything
// is written; the one exception is an Update whose Mark is set (rule 9). The
// refusal is Unmarked (wrapping ErrUnmarked), one message for every backend,
// whose way out names the import id ACCOUNT_ID/MACHINE_ID; internal/adapter/marks
// writes and reads the marks of backends with labels or tags. A
// backend whose Delete only gives a rented machine back, by taking the mark
// off, has nothing to give back of a machine without one: that Delete sends
// nothing and is done (Robot without cancel_on_destroy). List shows managed
// machines only; Inventory shows every machine with Machine.Managed, and never
// changes one. A machine without the mark offers no power action
// (Machine.Actions is empty).
//
// Proven by unmarkedLeftAlone ("unmarked machines are left alone": Delete,
// Power and Update are AccessDenied wrapping ErrUnmarked and naming the id,
// the machine is unchanged and not listed), unmarkedOffersNothing ("an
// unmarked machine offers no action"), rescueBoots ("a boot into rescue
// acts only on a held machine": Rescue's refusal is the same, naming the
// id) and reservedLabelsRefused ("a label reserved for the mark is
// refused", for a target that names one: no user label forges or removes
// the mark).
//
// # Rule 9: updates and the mark
//
// An Update changes only what it sets, and keeps the adapter's marks beside
// the user's labels (Machine.Labels holds the user's labels only). An
// UpdateRequest.Mark writes the mark's key and fingerprint: onto a machine
// without a mark, which is how an imported machine becomes managed on its
// first apply (an Update with a Mark may touch an unmarked machine; one
// without a Mark must refuse it, rule 8), or over the mark of a renamed
// machine, whose key follows its name. A Mark with a claim replaces the
// machine's claim; a Mark whose claim is empty keeps the claim the machine
// has. A Mark written by an Update is confirmed unless it says otherwise.
// Where the mark lives in the machine's name (Definition.MarkInName), a
// machine renamed by hand while a state held it gets its mark back this way.
//
// Proven by updatesKeepClaim ("updates keep the claim": relabelling keeps the
// claim, a Mark with a claim replaces it, a rename's Mark without one keeps
// it) and getAndDelete (labels); the marking of an unmarked machine by the
// adapters' own tests (internal/adapter/hcloud's
// TestUpdateMarksAnImportedServer, internal/adapter/robot's
// TestUpdateRenamesKeepingTheMark) and, for Proxmox, by internal/instance's
// TestProxmoxImportCommand.
//
// # Rule 10: ids
//
// A machine that is gone, and an id that never existed, are NotFound to every
// call that names one; a second Delete is NotFound. An id the definition's
// Rules.MachineID refuses is InvalidInput on the attribute id, from every
// call (an Update given a managed Current too), before any request is sent:
// the backend proved nothing, so it is not absence, and no retry can make
// it valid. The refusal names the rule and repeats the id only redacted,
// since a user may paste a secret where the id belongs (Rule.RefuseID,
// worded once by MalformedID).
//
// Proven by goneIsNotFound ("a gone machine is NotFound to every call"),
// malformedIDsAreInvalidInput ("a malformed id is InvalidInput", which counts
// the emulator's requests) and pastedIDsAreRedacted ("a pasted secret as an
// id is refused redacted").
//
// # Rule 11: capabilities and actions
//
// Capabilities are declared once, in the Definition, and are exactly the
// optional interfaces the adapter implements (CapPower: Powerer, CapUpdate:
// Updater, CapList: Lister, CapInventory: Inventory, CapCheck: Checker,
// CapValidate: Validator, CapRescue: Rescuer, CapIdentify: Identifier,
// CapBootstrap: Bootstrapper); CapShutdown, CapReboot and CapReset are more
// values of Power and each need CapPower too. The adapter value declares
// nothing itself: an opened account (Cached) offers what its definition
// declares, and Registry.Open refuses an adapter that lacks an interface its
// definition declares, naming the kind, the capability and the method
// (Capabilities.Implemented); ImplementedBy reads the same table the other
// way, for what an adapter implements. The Terraform layer refuses
// at plan time what is not declared (compute_machines refuses an account whose
// adapter lacks CapInventory). A machine's Actions are among those the
// capabilities offer and its state allows (ActionsFor): a running machine may
// be stopped or restarted, a stopped one started, others offer nothing (but a
// pending machine that is already up, on a backend that reports power apart
// from readiness, may offer a running one's actions). A machine without the
// mark offers nothing (rule 8). A graceful shutdown of a stopped machine does
// nothing; a reboot or reset never starts one (InvalidState).
//
// Proven by definitionBuilds ("definition builds": declared and implemented
// agree both ways), internal/adapter's
// TestOpenRefusesWhatTheAdapterDoesNotImplement, actionsMatchTheState
// ("available actions are offered and match the state"), gracefulPowerActions
// ("graceful power actions never start a stopped machine") and power ("power
// stops and starts"); the refusal of compute_machines by internal/machines'
// TestMachinesRefuseAccountWithoutInventory.
//
// # Rule 12: offers
//
// ListOffers gives offers with unique ids, sizes above zero and a currency
// with every price, sorted by price; an impossible query is an empty list and
// no error.
//
// Proven by offersWellFormed ("offers are well formed").
//
// # How codes meet Terraform
//
// The Terraform layer decides from the code alone:
//
//   - NotFound: a refresh removes the machine from state with a warning that
//     the next apply creates it again; a destroy counts it as done; a create
//     never returns it.
//   - Transient, RateLimited: retried with backoff (RetryDecision; a
//     RateLimited wait honours the retry-after) until the operation's timeout,
//     then an error that says what was retried; a refresh keeps the state. A
//     request that was never answered (NoAnswer) and a rate limit that
//     outlasts the timeout (LimitPastTimeout) fail at once instead.
//   - InvalidConfig, InvalidInput: an error on the attribute Error.Field
//     names, not retried.
//   - Unsupported: refused at plan time from the capabilities.
//   - AccessDenied, Conflict: an error that names the machine and the way out
//     (import, rename, `terraform state rm`); a destroy refuses to delete what
//     is not ours.
//   - QuotaExceeded, InvalidState: an error, not retried.
//
// A create whose wait fails after the machine exists returns partial state
// with the id, so Terraform taints the machine instead of losing it.
package adapter
