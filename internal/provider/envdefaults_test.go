package provider

import (
	"maps"
	"testing"
)

// TestSettingEnvNames: each adapter's credentials fall back on the
// variables its official provider's users already set (Robot: CAPH's).
func TestSettingEnvNames(t *testing.T) {
	want := map[string]string{
		"hcloud.token": "HCLOUD_TOKEN", "hcloud.endpoint": "HCLOUD_ENDPOINT",
		"proxmox.api_token": "PROXMOX_VE_API_TOKEN", "proxmox.endpoint": "PROXMOX_VE_ENDPOINT",
		"robot.user": "HETZNER_ROBOT_USER", "robot.password": "HETZNER_ROBOT_PASSWORD",
	}
	got := map[string]string{}
	for _, def := range DefaultRegistry().Definitions() {
		for _, s := range def.Settings {
			if s.Env != "" {
				got[def.Kind+"."+s.Name] = s.Env
			}
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("settings' variables %v, want %v", got, want)
	}
}
