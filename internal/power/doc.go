// Package power is the one power path of the Terraform layer: it brings a
// machine on, off or through a restart and waits until the machine has
// settled there, with the bounded graceful fallbacks (a shutdown that is not
// done within its bound cuts the power, a reboot that is not done resets).
// compute_instance (its power attribute, triggers_restart, create and
// adoption) and the power actions (internal/poweraction) both go through it, so
// a machine is switched the same way whoever asks.
//
// It knows the contract (internal/adapter) and the plugin framework's
// diagnostics, for the warnings a fallback gives; it imports no resource
// package and no concrete adapter.
package power
