// Package reliability holds the fault matrix: one Terraform-level test
// that runs every adapter's operations (create, refresh, update, power,
// offers, delete) and the phases of a Robot bootstrap host (claiming,
// rescue, identifying, installing, rebooting, ready) through every class
// of backend fault with the real terraform binary, checks after each that the backend holds exactly one
// machine per resource, that the state agrees with it, that nothing was
// orphaned or deleted that was not ours, and that a failed run's
// diagnostic names the cause; and that writes what it saw as the table in
// templates/guides/reliability.md.tmpl, from which `make docs` renders the
// reliability guide.
//
// It has test files only, besides this one. Like the other Terraform-layer
// test packages it reaches a backend through the provider and the
// emulators: it imports internal/acctest, internal/emulator/... and the
// contract's codes (internal/adapter), never a concrete adapter (the
// depguard rule terraform-layer holds it to that).
package reliability
