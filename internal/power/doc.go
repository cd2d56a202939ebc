// Package power is the one power path of the Terraform layer: it brings a
// machine on, off or through a restart and waits until the machine has
// settled there, with the bounded graceful fallbacks (a shutdown that is not
// done within its bound cuts the power, a reboot that is not done resets).
// compute_instance (its power attribute, triggers_restart, create and
// adoption) and the power actions (internal/poweraction) both go through it, so
// a machine is switched the same way whoever asks.
//
// Off is graceful first: the guest is asked to shut down and given its
// bound (shutdown_timeout) to be off before its power is cut. A restart is
// graceful first as well: a reboot request, bounded the same way, then a
// hard reset. Each fallback is warned about and logged, since it may have
// cost the guest unsaved work.
//
// It imports the contract (internal/adapter), internal/tftimeouts for how
// bounds are written, and the plugin framework's diagnostics, for the
// warnings a fallback gives; it imports no resource package and no concrete
// adapter.
package power
