package robot

import (
	"context"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestDefinitionEnvDefaults: left out, the user and password are the
// references env://HETZNER_ROBOT_USER and env://HETZNER_ROBOT_PASSWORD,
// CAPH's variables, never their values, whether the variables are set where
// the account is planned or not; the secret resolver reads them on each
// request; what is written always wins.
func TestDefinitionEnvDefaults(t *testing.T) {
	env := map[string]string{"HETZNER_ROBOT_USER": "SENTINEL-robot-user", "HETZNER_ROBOT_PASSWORD": "SENTINEL-robot-password"}
	d := Definition()
	for _, lookup := range []adapter.EnvLookup{adapter.MapEnv(env), nil} {
		norm, err := d.Normalize(map[string]string{}, lookup)
		if err != nil {
			t.Fatal(err)
		}
		if norm[settingUser] != "env://HETZNER_ROBOT_USER" || norm[settingPassword] != "env://HETZNER_ROBOT_PASSWORD" || norm[settingEndpoint] != DefaultEndpoint {
			t.Errorf("defaults: %v", norm)
		}
		for _, v := range norm {
			if strings.Contains(v, "SENTINEL") {
				t.Errorf("a setting holds a secret: %v", norm)
			}
		}
	}
	norm, _ := d.Normalize(map[string]string{}, adapter.MapEnv(env))
	secrets := adapter.SecretResolver{LookupEnv: adapter.MapEnv(env)}
	for name, want := range map[string]string{settingUser: "SENTINEL-robot-user", settingPassword: "SENTINEL-robot-password"} {
		if got, err := secrets.Resolve(context.Background(), norm[name]); err != nil || got != want {
			t.Errorf("%s resolves to %q, %v; want %q", name, got, err, want)
		}
	}
	written := map[string]string{settingUser: "provider://robot_user", settingPassword: "file:///run/secrets/robot-password"}
	if norm, err := d.Normalize(written, adapter.MapEnv(env)); err != nil || norm[settingUser] != written[settingUser] || norm[settingPassword] != written[settingPassword] {
		t.Errorf("written settings lost to the environment: %v %v", norm, err)
	}
}
