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
package adapter
