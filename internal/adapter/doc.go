// Package adapter is the contract between the Terraform layer and the backends
// that own machines: the Adapter interface and its optional capabilities, the
// value types (Machine, Offer, Query, CreateRequest, Call), the error codes
// every backend error is classified into, the pure retry policy, secret
// references, and account and instance locators.
//
// It imports only the standard library, so both the resource packages above it
// and the concrete adapters below it (internal/adapter/<name>) can depend on it
// without depending on each other.
package adapter
