package toycloud

import "github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"

// Conformance returns the emulator's conformance hooks (conformance.Faults):
// the API is in the plainest REST shape, so the shared hooks' plain table
// is its table, and the fleet stages a server by its status word.
func (e *Emulator) Conformance() *hooks.Hooks {
	return hooks.New(e.Middleware, hooks.Table{Emulator: "toycloud", Routes: hooks.Resource("/servers", "/power"),
		Answers: hooks.PlainAnswers(), Revoked: hooks.PlainRevoked(), Latency: e.opts.Latency, Stage: e.servers.Stage(stages)})
}

// stages are the status word the API shows in each situation; it never
// documents "hibernating".
var stages = map[string]string{hooks.SituationProvisioning: "provisioning", hooks.SituationUnaddressed: "running",
	hooks.SituationStopping: "stopping", hooks.SituationDeleting: "deleting", hooks.SituationUnrecognised: "hibernating"}
