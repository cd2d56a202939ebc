package robot

import (
	"regexp"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Kind is the adapter kind accounts name.
const Kind = "robot"

// DefaultEndpoint is the Robot webservice.
const DefaultEndpoint = "https://robot-ws.your-server.de"

// DefaultLocation is where servers are looked for and ordered when neither
// the account nor the request names a location.
const DefaultLocation = "fsn1"

// The settings' names, read by the adapter and by the bootstrap phases.
const (
	settingUser            = "user"
	settingPassword        = "password"
	settingEndpoint        = "endpoint"
	settingLocation        = "location"
	settingSSHKey          = "ssh_key"
	settingSSHPrivateKey   = "ssh_private_key"
	settingSSHPort         = "ssh_port"
	settingAllowOrder      = "allow_order"
	settingCancelOnDestroy = "cancel_on_destroy"
)

// Definition describes the Hetzner Robot adapter for the registry.
func Definition() adapter.Definition { return definition(defaultOptions()) }

func definition(opts options) adapter.Definition {
	return adapter.Definition{
		Kind:        Kind,
		Description: "Hetzner Robot dedicated servers, through the Robot webservice.",
		Block:       "hetzner_robot",
		BlockDescription: "Hetzner Robot dedicated servers, through the Robot webservice. Servers are rented: a create claims " +
			"the server `machine_id` names, or a free server of `offer_id` in the location, and orders one only when " +
			"`allow_order` is true and the instance's monthly price limit allows it. Robot keeps nothing about a server " +
			"but its name, so the claim is written into the server name (`<name>~cm~…`); destroying releases the claim " +
			"and cancels the rental only with `cancel_on_destroy`.",
		Capabilities: capabilities,
		Rules:        rules,
		MarkInName:   true,
		Notes:        notes,
		Settings: []adapter.Setting{
			// HETZNER_ROBOT_*: the names the Cluster API provider for
			// Hetzner (CAPH) and most Robot tools use; the Robot
			// Terraform providers agree on none (HETZNERROBOT_USERNAME,
			// HROBOT_USERNAME).
			{Name: settingUser, Required: true, Env: "HETZNER_ROBOT_USER", Role: adapter.RoleSecret,
				Description: "secret reference to the Robot webservice user (Settings → Web service and app settings in Robot)"},
			{Name: settingPassword, Required: true, Env: "HETZNER_ROBOT_PASSWORD", Role: adapter.RoleSecret,
				Description: "secret reference to the webservice user's password"},
			{Name: settingEndpoint, Default: DefaultEndpoint, Role: adapter.RoleEndpoint, Scope: true, Check: checkEndpoint,
				Description: "base URL of the Robot webservice; an https URL, or http only to a loopback host (an emulator)"},
			{Name: settingLocation, Default: DefaultLocation, Role: adapter.RoleLocation, Check: checkLocation,
				Description: "location servers are claimed and ordered in when the instance names none: fsn1, nbg1 or hel1"},
			{Name: settingSSHKey, Check: checkFingerprint, NeededBy: adapter.Capabilities{adapter.CapRescue},
				Description: "fingerprint of the account's public SSH key as Robot lists it under Key management (MD5, hex pairs " +
					"separated by colons), sent as the authorized key of rescue systems and orders; required for bootstrap, " +
					"compute_instance_rescue and ordering"},
			{Name: settingSSHPrivateKey, Role: adapter.RoleSecret,
				Description: "secret reference to the private key (OpenSSH PEM) matching ssh_key, used only after a host key passed its pin"},
			{Name: settingSSHPort, Default: "22", Check: checkPort,
				Description: "TCP port SSH is dialled on at each server's main address"},
			{Name: settingAllowOrder, Default: "false", Check: checkBool,
				Description: "true lets a create order a new server (it costs money) when no free server of the offer is there and " +
					"the instance's max_monthly_price covers the offer's monthly price"},
			{Name: settingCancelOnDestroy, Default: "false", Role: adapter.RoleCancelsRental, Check: checkBool,
				Description: "true cancels a server's rental (at once) when its instance is destroyed; false only releases the claim"},
		},
		New: func(settings map[string]string, env adapter.Env) (adapter.Adapter, error) {
			return newAccount(settings, env, opts), nil
		},
	}
}

// capabilities are what account implements. Identify and bootstrap need
// SSH into the rescue system and come with the bootstrap phases
// (bootstrap*.go), which declare them. There is no graceful shutdown:
// Robot's only gentle power command is the power button ("power"), which
// switches a stopped server on as readily as it asks a running one to stop,
// and Robot cannot tell which the server is.
var capabilities = adapter.Capabilities{
	adapter.CapPower, adapter.CapUpdate, adapter.CapList, adapter.CapInventory, adapter.CapCheck, adapter.CapValidate,
	adapter.CapReboot, adapter.CapReset,
}

// notes say what the contract's fields are on Robot, for the docs.
var notes = map[string]string{
	adapter.FieldName: "up to " + strconv.Itoa(maxUserName) + " printable ASCII characters without `~cm~`; the server name " +
		"Robot shows is this name followed by the claim mark",
	adapter.FieldLabels:  "Robot has no labels: only an empty map",
	adapter.FieldOfferID: "a standard product id such as `AX42`, or `market-<id>` for a server market (auction) offer",
	adapter.FieldImage: "an installimage image name such as `Ubuntu-2404-noble-amd64-base`, which compute_bootstrap_host installs; " +
		"a compute_instance installs nothing on Robot: it claims the rented server as it is and only records the image " +
		"(a change releases the server and claims one again), so to install one use compute_bootstrap_host",
	adapter.FieldUserData:     "refused: Robot servers take no user data; deliver files and a first-boot command with compute_bootstrap_host",
	adapter.FieldLocation:     "`fsn1`, `nbg1` or `hel1`; a server in datacenter `FSN1-DC14` is in `fsn1`",
	adapter.FieldPricePerHour: "the gross monthly price (VAT included) spread over 730 hours",
	adapter.NoteRescueWait: "the rescue system answers on SSH with the host key Robot announced for it (which is checked, never " +
		"trusted on first use). The boot spends the rescue activation, so the machine's next reboot (a " +
		"`compute_instance_reboot`, a reset, or `reboot` typed in the rescue system) starts its disks again. A machine that " +
		"runs its rescue system already is left there: nothing is armed or reset. A reset into rescue whose answer was lost " +
		"is sent again while Robot's activation still stands, and an invocation that finds rescue armed but not answering " +
		"resets at once: at worst the machine boots rescue twice, which writes nothing to its disks, where waiting for the " +
		"first boot would cost minutes each time the reset really was lost",
	adapter.NoteRescueLogin: "with the account's SSH key (its `ssh_key` setting)",
	adapter.NoteRescueUndo:  "withdraw the activation in Robot: the server's Rescue tab, or `DELETE /boot/{server-number}/rescue`",
}

var locations = []string{"fsn1", "nbg1", "hel1"}

func checkLocation(v string) error {
	for _, l := range locations {
		if v == l {
			return nil
		}
	}
	return adapter.Errorf(adapter.InvalidConfig, "it is not a Robot location; use fsn1, nbg1 or hel1")
}

var md5Fingerprint = regexp.MustCompile(`^[0-9a-f]{2}(:[0-9a-f]{2}){15}$`)

func checkFingerprint(v string) error {
	if !md5Fingerprint.MatchString(v) {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a key fingerprint as Robot lists it (16 lower-case hex pairs separated by colons, "+
			"e.g. 56:29:99:a4:5d:ed:ac:95:c1:f5:88:82:90:5d:dd:10); copy it from Key management in Robot or GET /key")
	}
	return nil
}

func checkPort(v string) error {
	if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 65535 {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a TCP port; use a number from 1 to 65535, usually 22")
	}
	return nil
}

func checkBool(v string) error {
	if v != "true" && v != "false" {
		return adapter.Errorf(adapter.InvalidConfig, "use true or false")
	}
	return nil
}

// checkEndpoint is the contract's rule for base URLs, worded for this
// adapter's credentials.
func checkEndpoint(v string) error {
	return adapter.CheckBaseURL(v, "the password", "the user and password settings", DefaultEndpoint)
}
