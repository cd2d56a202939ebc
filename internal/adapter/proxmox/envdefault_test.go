package proxmox

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestDefinitionEnvDefaults: left out, the endpoint is PROXMOX_VE_ENDPOINT's
// value and the token the reference env://PROXMOX_VE_API_TOKEN, the
// variables bpg/proxmox reads; without the endpoint's variable the account
// needs the setting, and the error says both ways.
func TestDefinitionEnvDefaults(t *testing.T) {
	const flavors = `{"small":{"cores":1,"memory_mib":512,"disk_gib":8}}`
	env := map[string]string{"PROXMOX_VE_API_TOKEN": "root@pam!ci=SENTINEL-pve-secret", "PROXMOX_VE_ENDPOINT": "https://pve1.example.com:8006/"}
	lookup := adapter.MapEnv(env)
	d := Definition()
	norm, err := d.Normalize(map[string]string{settingFlavors: flavors}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if norm[settingAPIToken] != "env://PROXMOX_VE_API_TOKEN" || norm[settingEndpoint] != "https://pve1.example.com:8006/" {
		t.Errorf("defaults: %v", norm)
	}
	for _, v := range norm {
		if strings.Contains(v, "SENTINEL") {
			t.Errorf("a setting holds the token: %v", norm)
		}
	}
	env["PROXMOX_VE_ENDPOINT"] = ""
	_, err = d.Normalize(map[string]string{settingFlavors: flavors}, lookup)
	if !adapter.Is(err, adapter.InvalidConfig) || adapter.FieldOf(err) != settingEndpoint || !strings.Contains(err.Error(), "set the environment variable PROXMOX_VE_ENDPOINT") {
		t.Errorf("no endpoint and no PROXMOX_VE_ENDPOINT: %v", err)
	}
}
