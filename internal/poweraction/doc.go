// Package poweraction holds the power actions of compute_instance:
// compute_instance_power_on, _power_off, _shutdown, _reboot and _reset, and
// the boot into the backend's rescue system, compute_instance_rescue, which
// Terraform 1.14 and later run with `terraform apply -invoke` or from a
// resource's action_trigger. An action does to a running machine what an
// operator does, without changing the instance's configuration; the next
// plan shows only what really changed on the machine (a machine switched
// off that its configuration wants on, say).
//
// An action has no access to the resource's state, so its configuration
// carries what the state holds: the instance object itself (account, id and
// claim, plus shutdown_timeout and name when there). The action refuses at
// plan what the account's adapter cannot do, and refuses, at plan and again
// before it acts, a machine that does not carry the provider's mark or whose
// mark carries another state's claim: the same rule Update keeps. Each
// action waits until the machine has reached the state it asked for, through
// the one power path (internal/power) that compute_instance uses; the boot
// into rescue waits through the adapter's own Rescue (adapter.Rescuer),
// which checks the hold once more before it writes.
//
// It imports the contract (internal/adapter) and the Terraform-layer helpers
// (internal/power, internal/tfdiag, internal/tftimeouts), never a resource
// package or a concrete adapter.
package poweraction
