package acctest

import (
	"os"
	"slices"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// clearSettingEnv unsets the variables accounts fall back on when their
// configuration leaves a setting out (adapter.Setting.Env), so that a
// developer's shell cannot point the tests' accounts at another API or hand
// them a real credential; a test that leaves a setting out sets the
// variable itself. Only the in-process emulator's runs lose the secrets'
// variables: another target is reached through one of them (RealTokenEnv).
func clearSettingEnv() {
	for _, def := range provider.DefaultRegistry().Definitions() {
		for _, s := range def.Settings {
			if s.Env != "" && (!s.IsSecret() || selection.kind == InProcess) {
				os.Unsetenv(s.Env)
			}
		}
	}
}

// Unsetenv removes a variable from every later command's environment, as
// if the shell that runs Terraform never had it.
func (c *CLI) Unsetenv(key string) {
	c.env = slices.DeleteFunc(c.env, func(kv string) bool { return strings.HasPrefix(kv, key+"=") })
}
