// Package robot is the Hetzner Robot adapter: rented dedicated servers,
// reached through the Robot webservice (robot-ws.your-server.de) with the
// REST backends' client (internal/adapter/rest, configured in client.go):
// HTTP Basic with the account's user and password resolved from their
// secret references on every request, form-encoded bodies, JSON answers,
// one bound per request and no retry of its own (the contract's adapter.Retry is the only retry layer). Every
// backend error becomes one adapter code through classify (classify.go).
//
// Robot servers exist before anyone claims them: Create claims one (the
// server named by MachineID, or a free server of the offer), or orders one
// when the account allows it. Robot keeps nothing about a server but its
// name, so the claim lives there (claimname.go):
//
//	<name>~cm~<claim: 32 hex>~<fingerprint: first 8 hex>~<e|n>
//
// The idempotency key is recomputed from <name> and the account's scope, the
// fingerprint is the request's cut to 8 hex digits, and the last letter says
// what release restores: "" (e) or <name> (n). Delete releases the claim and
// cancels the rental only when the account sets cancel_on_destroy.
//
// It may import the contract, internal/adapter/rest (its client),
// internal/adapter/sshexec (the bootstrap's sessions to the rescue system),
// its own install subpackage (the install generators, install/) and the
// standard library, never the Terraform plugin framework nor any other
// adapter; the Robot emulator in internal/emulator/robot is used by its
// tests alone. The bootstrap phases (bootstrap*.go) live beside it. It
// needs no internal/adapter/marks: its mark is the server's name.
package robot
