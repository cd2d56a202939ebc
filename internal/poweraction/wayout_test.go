package poweraction

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestWayOutOfAPlainSettingNamesNoSecrets: a setting that holds no secret
// reference (rescue_ssh_keys) is fixed in the account, so its way out names
// the setting and not the provider block's secrets; a secret setting's
// still names them.
func TestWayOutOfAPlainSettingNamesNoSecrets(t *testing.T) {
	def := adapter.Definition{Settings: []adapter.Setting{{Name: "rescue_ssh_keys"}, {Name: "token", Role: adapter.RoleSecret}}}
	plain := config{}.wayOut(def, adapter.Errorf(adapter.InvalidConfig, "no SSH key named or with id \"x\"").WithField("rescue_ssh_keys"))
	if strings.Contains(plain, "secrets") || !strings.Contains(plain, "`rescue_ssh_keys` setting") {
		t.Errorf("way out of a plain setting: %q, want the setting named and no secrets", plain)
	}
	secret := config{}.wayOut(def, adapter.Errorf(adapter.InvalidConfig, "token does not resolve").WithField("token"))
	if !strings.Contains(secret, "provider block's secrets") {
		t.Errorf("way out of a secret setting: %q, want the provider block's secrets named", secret)
	}
}
