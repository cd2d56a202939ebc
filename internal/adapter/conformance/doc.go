// Package conformance holds the generic cases every adapter must pass: the
// numbered rules of the adapter contract, written in internal/adapter's
// package documentation, and the codes beneath them, checked through the
// contract alone, so one suite runs against every backend. An adapter's own
// test calls Run with a function that builds a fresh Target (usually an
// emulator) per case.
//
// The cases, by rule: 1, idempotent create (cases.go); 2, adoption and holding
// (claims.go, holds.go, rescue.go); 3, authoritative absence under every class
// of fault during every call and at an endpoint that is not the API
// (absence.go, impostor.go); 4, conservative states (states.go); 5, one
// classify (the fault classes' codes in absence.go, and fuzz.go); 6, no secret
// in any error, Machine or log line (secrets.go, logs.go; Run checks the log
// lines of every case); 7, honouring cancellation and each request's own bound
// (cancel.go, absence.go); 8, only marked machines are changed (claims.go,
// actions.go, and reserved.go: no user label forges the mark); 9, updates and
// the mark (claims.go); 10, gone and malformed ids (ids.go); 11, capabilities
// and the power actions a machine offers (cases.go, actions.go); 12, offers
// (cases.go). A target's emulator makes the faults through the Faults hooks
// (faults.go); a target without them, such as a real account, skips the cases
// that need them. Each adapter's classify fuzz target (fuzz.go) drives its
// calls through an Answer, a backend that answers every request with one
// fuzzed status and body, and holds what comes back to the same rules:
// classified, NotFound only on the API's own proof of absence, states and
// offers sound.
//
// A target states what its backend cannot do rather than the cases bending:
// no labels or no user data at create (Target.NoLabels, NoUserData), power
// that Get cannot see (PowerObservable false, with PowerReceived reporting
// what each action reached the machine as). A backend whose delete is only
// a release, leaving the machine on the account (rented servers), cannot
// show absence after it: its target must run with the account setting that
// ends the rental on delete (Robot's cancel_on_destroy), so that a deleted
// machine is deleting, then gone, as everywhere else.
//
// It imports the contract and the standard library only, never a concrete
// adapter or emulator; the hooks speak in strings so that emulators need not
// import it either.
package conformance
