package hcloud

import (
	"regexp"
	"strings"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Kind is the adapter kind accounts name.
const Kind = "hcloud"

// DefaultLocation is where machines go when neither the account nor the
// request names a location.
const DefaultLocation = "fsn1"

// Definition describes the Hetzner Cloud adapter for the registry.
func Definition() adapter.Definition { return definition(defaultOptions()) }

func definition(opts options) adapter.Definition {
	return adapter.Definition{
		Kind:             Kind,
		Description:      "Hetzner Cloud virtual servers, through the Hetzner Cloud API.",
		Block:            "hetzner_cloud",
		BlockDescription: "Hetzner Cloud virtual servers, through the Hetzner Cloud API.",
		Capabilities:     capabilities,
		Rules:            rules,
		Notes:            notes,
		Settings: []adapter.Setting{
			{
				Name:        "token",
				Description: "secret reference to a Read & Write API token of the Hetzner Cloud project",
				Required:    true,
				Role:        adapter.RoleSecret,
				// The variable the hcloud provider and CLI read.
				Env: "HCLOUD_TOKEN",
			},
			{
				Name:        "location",
				Description: "location machines are created in when the instance names none, e.g. fsn1, nbg1, hel1, ash, hil, sin",
				Default:     DefaultLocation,
				Role:        adapter.RoleLocation,
				Check:       checkLocationName,
			},
			{
				Name:        "endpoint",
				Description: "base URL of the Hetzner Cloud API; an https URL, or http only to a loopback host (an emulator)",
				Default:     hcloud.Endpoint,
				// The variable the hcloud provider and CLI read: it points
				// them all at one compatible API (an emulator).
				Env:   "HCLOUD_ENDPOINT",
				Role:  adapter.RoleEndpoint,
				Scope: true,
				Check: checkEndpoint,
			},
			{
				Name: settingRescueKeys,
				Description: "the project's SSH keys a rescue system accepts, by name or id as `hcloud ssh-key list` shows them, " +
					"separated by commas; required for compute_instance_rescue, whose operator logs in as root with one of them",
				Check:     checkKeyList,
				Canonical: canonicalKeys,
				// Key names and ids hold no secret: messages may repeat them.
				Public:   true,
				NeededBy: adapter.Capabilities{adapter.CapRescue},
			},
		},
		New: func(settings map[string]string, env adapter.Env) (adapter.Adapter, error) {
			return newAccount(settings, env, opts)
		},
	}
}

// capabilities are the optional interfaces account implements, declared
// once, here, for Definition (rescue.go adds CapRescue).
var capabilities = adapter.Capabilities{
	adapter.CapPower, adapter.CapUpdate, adapter.CapList, adapter.CapInventory, adapter.CapCheck, adapter.CapValidate,
	adapter.CapShutdown, adapter.CapReboot, adapter.CapReset,
}

// notes say what the contract's fields are on Hetzner Cloud, for the docs.
var notes = map[string]string{
	adapter.FieldName:         "a valid hostname as RFC 1123 defines it: letters, digits and dashes in dot-separated parts",
	adapter.FieldLabels:       "the Hetzner Cloud label syntax; the `hetzner.cloud/` and `" + labelMarks.Prefix + "` prefixes are reserved",
	adapter.FieldOfferID:      "the server type name, e.g. `cx22`",
	adapter.FieldImage:        "an image name such as `ubuntu-24.04`",
	adapter.FieldLocation:     "a location name such as `fsn1`, `nbg1`, `hel1`, `ash`, `hil` or `sin`",
	adapter.FieldPricePerHour: "the API's gross price, \"price with VAT added\", not its net price",
	adapter.NoteRescueWait: "the server runs again with its rescue disarmed, as the API marks the boot of the rescue system; its SSH " +
		"may answer a little later. The API does not report a server that runs its rescue system already, so such a server " +
		"boots it again. An enable_rescue or a reset of an interrupted invocation that still runs is waited for and not sent " +
		"again, so a rerun boots the server once. A reset the API refused is sent again; one whose answer was lost is sent " +
		"again only while rescue is still armed, since a second reset after the boot would start the disks",
	adapter.NoteRescueLogin: "with one of the project keys the account's `" + settingRescueKeys + "` setting names, once SSH answers",
	adapter.NoteRescueUndo:  undoRescue("SERVER"),
}

// locationName is the API's own pattern for location names.
var locationName = regexp.MustCompile(`^[a-z0-9]+(-?[a-z0-9]*)*$`)

// checkLocationName does not repeat the value: callers show it redacted.
func checkLocationName(v string) error {
	if !locationName.MatchString(v) {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a Hetzner Cloud location name; use a name such as fsn1, nbg1, hel1, ash, hil or sin")
	}
	return nil
}

// checkEndpoint is the contract's rule for base URLs, worded for this
// adapter's credentials.
func checkEndpoint(v string) error {
	return adapter.CheckBaseURL(v, "the API token", "the token setting", "https://api.hetzner.cloud/v1 or an https URL of a compatible API")
}

// splitKeys reads a comma-separated list of SSH key names or ids.
func splitKeys(v string) []string {
	var out []string
	for _, k := range strings.Split(v, ",") {
		if k = strings.TrimSpace(k); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// canonicalKeys is the key list as the account id holds it: trimmed and
// comma-joined, so "ops, ci" and "ops,ci" name one account.
func canonicalKeys(v string) string { return strings.Join(splitKeys(v), ",") }

// checkKeyList refuses a list that names no key, such as "," or " ".
func checkKeyList(v string) error {
	if len(splitKeys(v)) == 0 {
		return adapter.Errorf(adapter.InvalidConfig, "it names no SSH key; give key names or ids separated by commas")
	}
	return nil
}
