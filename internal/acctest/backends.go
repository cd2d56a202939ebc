package acctest

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The environment that points acceptance tests at real accounts, per
// backend, with TF_ACC=1 (see SelectTargets and the README's testing
// section).
const (
	// EndpointEnv points the Hetzner Cloud tests at an API that is
	// already running, such as the standalone emulator (make emulator).
	EndpointEnv = "COMPUTE_TEST_ENDPOINT"
	// RealTokenEnv holds a token of a real Hetzner Cloud project, which the
	// tests then create machines in. With EndpointEnv it is that API's
	// token, "demo-token" (the standalone emulator's default) when unset.
	RealTokenEnv = "HCLOUD_TOKEN"
	// OfferEnv, ImageEnv and LocationEnv replace what Hetzner Cloud
	// lifecycle tests create, for a project where the defaults are not sold.
	OfferEnv    = "COMPUTE_TEST_OFFER"
	ImageEnv    = "COMPUTE_TEST_IMAGE"
	LocationEnv = "COMPUTE_TEST_LOCATION"

	// RobotUserEnv and RobotPasswordEnv hold the Robot webservice user and
	// its password: the variables the provider's accounts fall back on.
	RobotUserEnv     = "HETZNER_ROBOT_USER"
	RobotPasswordEnv = "HETZNER_ROBOT_PASSWORD"
	// RobotServerEnv is the number of a rented server the tests may claim,
	// install and release; they never cancel it.
	RobotServerEnv = "COMPUTE_TEST_ROBOT_SERVER"
	// RobotSSHKeyEnv is the fingerprint of the account's SSH key as Robot
	// lists it; RobotSSHKeyFileEnv the file of its private half.
	RobotSSHKeyEnv     = "COMPUTE_TEST_ROBOT_SSH_KEY"
	RobotSSHKeyFileEnv = "COMPUTE_TEST_ROBOT_SSH_KEY_FILE"
	// RobotEndpointEnv, RobotSSHPortEnv and RobotImageEnv replace the
	// webservice's URL, the SSH port and the image installed.
	RobotEndpointEnv = "COMPUTE_TEST_ROBOT_ENDPOINT"
	RobotSSHPortEnv  = "COMPUTE_TEST_ROBOT_SSH_PORT"
	RobotImageEnv    = "COMPUTE_TEST_ROBOT_IMAGE"

	// ProxmoxEndpointEnv and ProxmoxTokenEnv are the cluster's API and a
	// token of it (USER@REALM!TOKENID=SECRET): the variables the
	// provider's accounts fall back on.
	ProxmoxEndpointEnv = "PROXMOX_VE_ENDPOINT"
	ProxmoxTokenEnv    = "PROXMOX_VE_API_TOKEN"
	// ProxmoxTemplateEnv names the template the tests clone.
	ProxmoxTemplateEnv = "COMPUTE_TEST_PROXMOX_TEMPLATE"
	// ProxmoxFingerprintEnv pins the API's certificate (tls_fingerprint);
	// ProxmoxNodeEnv is the node the tests create on.
	ProxmoxFingerprintEnv = "COMPUTE_TEST_PROXMOX_TLS_FINGERPRINT"
	ProxmoxNodeEnv        = "COMPUTE_TEST_PROXMOX_NODE"
)

// RobotImage is what a Robot target installs unless RobotImageEnv says.
const RobotImage = "Ubuntu-2404-noble-amd64-base"

// The VMIDs a Proxmox target's account hands out (vmid_min, vmid_max): the
// tests' own range, which the sweep keeps to.
const (
	ProxmoxTestVMIDMin = 990000
	ProxmoxTestVMIDMax = 999999
)

// ProxmoxTestFlavor is the offer a Proxmox target's tests create.
const ProxmoxTestFlavor = "small"

// Backend is one adapter the acceptance tests run on: the variables that
// put its tests on an account, the account a test's configuration writes,
// and what, beside the name prefix and the managed mark, tells a machine a
// test made (testMark).
type Backend struct {
	// Kind is the adapter's kind in the registry; Title names it for people.
	Kind, Title string
	// Required are the variables a run on an account needs; Optional
	// those it may set.
	Required, Optional []string
	// TestMark says, for the docs and messages, what tells a test's
	// machine from a user's beside the prefix and the managed mark.
	TestMark string

	// endpointEnv names the backend's API; an endpoint on loopback is an
	// API of the tests' own (Standalone), such as the standalone emulator.
	endpointEnv string
	// anyEndpointStandalone says the real API is reached without an
	// endpoint, so that any endpoint set is an API of the tests' own, on
	// loopback or not.
	anyEndpointStandalone bool
	// standaloneEnv are the standalone emulator's values of variables
	// the environment may leave empty on a Standalone run.
	standaloneEnv map[string]string
	// missingFunc replaces the check of Required, for a backend whose
	// variables stand in for each other.
	missingFunc func(getenv func(string) string) []string
	local       func(t testing.TB, tg *Target)
	remote      func(tg *Target, env map[string]string)
	marked      func(tg *Target, m adapter.Machine) bool
	// destroyed checks, after a destroy, what the API shows beyond the
	// absence of the test's machines from the managed listing.
	destroyed func(tg *Target) error
}

// Backends are the backends acceptance tests run on: the three shipped
// ones, and the Registered ones of any other adapter in the provider's
// registry.
var Backends = append([]*Backend{HetznerCloud, HetznerRobot, ProxmoxVE}, Registered...)

// variables are all the variables of the backend.
func (b *Backend) variables() []string { return slices.Concat(b.Required, b.Optional) }

// kindAt is where a run whose variables name endpoint (maybe "") runs.
func (b *Backend) kindAt(endpoint string) TargetKind {
	if endpoint != "" && (b.anyEndpointStandalone || loopback(endpoint)) {
		return Standalone
	}
	return RealAPI
}

// missing are the variables a run on an account lacks.
func (b *Backend) missing(getenv func(string) string) []string {
	if b.missingFunc != nil {
		return b.missingFunc(getenv)
	}
	var out []string
	for _, v := range b.Required {
		if getenv(v) == "" {
			out = append(out, v)
		}
	}
	return out
}

// HetznerCloud runs on a Hetzner Cloud project (HCLOUD_TOKEN) or the API at
// COMPUTE_TEST_ENDPOINT. Its machines carry the test label.
var HetznerCloud = &Backend{
	Kind: "hcloud", Title: "Hetzner Cloud",
	Required: []string{RealTokenEnv},
	Optional: []string{EndpointEnv, OfferEnv, ImageEnv, LocationEnv},
	TestMark: "the label " + SweepLabel + " = " + SweepValue,

	endpointEnv:           EndpointEnv,
	anyEndpointStandalone: true,
	standaloneEnv:         map[string]string{RealTokenEnv: standaloneToken},
	missingFunc: func(getenv func(string) string) []string {
		if getenv(RealTokenEnv) == "" && getenv(EndpointEnv) == "" {
			return []string{RealTokenEnv + " (or " + EndpointEnv + ")"}
		}
		return nil
	},
	local: func(t testing.TB, tg *Target) {
		tg.emu = NewEmulator(t)
		tg.Settings = map[string]string{"token": "env://" + HetznerCloudTokenEnv, "endpoint": tg.emu.Endpoint}
		hcloudInstanceSettings(tg, nil)
	},
	remote: func(tg *Target, env map[string]string) {
		tg.Settings = map[string]string{"token": "env://" + RealTokenEnv, "endpoint": env[EndpointEnv]}
		hcloudInstanceSettings(tg, env)
	},
	marked:    func(_ *Target, m adapter.Machine) bool { return m.Labels[SweepLabel] == SweepValue },
	destroyed: func(*Target) error { return nil },
}

// hcloudInstanceSettings sets what Hetzner Cloud lifecycle tests create: the
// variables' values, read from env on an account and from the process
// otherwise.
func hcloudInstanceSettings(tg *Target, env map[string]string) {
	get := func(k, fallback string) string {
		v := env[k]
		if env == nil {
			v = envOr(k, "")
		}
		if v == "" {
			return fallback
		}
		return v
	}
	tg.Location, tg.Offer, tg.Image = get(LocationEnv, "fsn1"), get(OfferEnv, "cx22"), get(ImageEnv, "ubuntu-24.04")
	tg.Settings["location"] = tg.Location
}

// HetznerRobot runs on a Robot account and one rented server of it, which
// the tests claim, install and release, and which alone the sweep touches:
// Robot keeps no labels, so the server's number is the test mark. Sweeping
// a server releases its claim (gives it its name back); nothing here ever
// cancels a rental.
var HetznerRobot = &Backend{
	Kind: "robot", Title: "Hetzner Robot",
	Required: []string{RobotUserEnv, RobotPasswordEnv, RobotServerEnv, RobotSSHKeyEnv, RobotSSHKeyFileEnv},
	Optional: []string{RobotEndpointEnv, RobotSSHPortEnv, RobotImageEnv},
	TestMark: "the server number " + RobotServerEnv + " names",

	endpointEnv: RobotEndpointEnv,
	local: func(t testing.TB, tg *Target) {
		m := NewMetal(t)
		n, _ := m.AddServer(t, "")
		tg.metal, tg.MachineID, tg.Image = m, strconv.Itoa(n), RobotImage
		tg.Settings = map[string]string{
			"user": m.SecretRef("user"), "password": m.SecretRef("password"), "endpoint": m.Endpoint,
			"ssh_key": m.KeyFingerprint, "ssh_private_key": m.SecretRef("id_ed25519"), "ssh_port": strconv.Itoa(m.Farm.SSHPort()),
			"cancel_on_destroy": "false",
		}
	},
	remote: func(tg *Target, env map[string]string) {
		key, err := filepath.Abs(env[RobotSSHKeyFileEnv])
		if err != nil {
			key = env[RobotSSHKeyFileEnv]
		}
		tg.MachineID, tg.Image = env[RobotServerEnv], variableOr(env, RobotImageEnv, RobotImage)
		tg.Settings = map[string]string{
			"user": "env://" + RobotUserEnv, "password": "env://" + RobotPasswordEnv, "endpoint": env[RobotEndpointEnv],
			"ssh_key": env[RobotSSHKeyEnv], "ssh_private_key": "file://" + key, "ssh_port": env[RobotSSHPortEnv],
			// Spelled out: a destroy or a sweep releases the server and
			// never cancels its rental.
			"cancel_on_destroy": "false",
		}
	},
	marked:    func(tg *Target, m adapter.Machine) bool { return tg.MachineID != "" && m.ID == tg.MachineID },
	destroyed: robotReleased,
}

// ProxmoxVE runs on a Proxmox VE cluster, cloning one template. Proxmox
// keeps no labels, so the tests' VMID range is the test mark: the account
// of a test hands out VMIDs from ProxmoxTestVMIDMin to ProxmoxTestVMIDMax
// only, and the sweep removes managed VMs of the prefix in that range.
var ProxmoxVE = &Backend{
	Kind: "proxmox", Title: "Proxmox VE",
	Required: []string{ProxmoxEndpointEnv, ProxmoxTokenEnv, ProxmoxTemplateEnv},
	Optional: []string{ProxmoxFingerprintEnv, ProxmoxNodeEnv},
	TestMark: "a VMID from " + strconv.Itoa(ProxmoxTestVMIDMin) + " to " + strconv.Itoa(ProxmoxTestVMIDMax),

	endpointEnv: ProxmoxEndpointEnv,
	local: func(t testing.TB, tg *Target) {
		p := NewProxmox(t)
		tg.pve, tg.Image = p, ProxmoxTemplate
		proxmoxSettings(tg, p.Endpoint, "file://"+p.TokenFile(), p.Fingerprint, "")
	},
	remote: func(tg *Target, env map[string]string) {
		tg.Image = env[ProxmoxTemplateEnv]
		proxmoxSettings(tg, env[ProxmoxEndpointEnv], "env://"+ProxmoxTokenEnv, env[ProxmoxFingerprintEnv], env[ProxmoxNodeEnv])
	},
	marked: func(_ *Target, m adapter.Machine) bool {
		vmid, err := strconv.Atoi(m.ID)
		return err == nil && vmid >= ProxmoxTestVMIDMin && vmid <= ProxmoxTestVMIDMax
	},
	destroyed: func(*Target) error { return nil },
}

// proxmoxFlavors are the flavors of a Proxmox target's account: the one
// its tests create, small for a shared cluster. A clone's disk only grows
// to disk_gib, so a template with a larger disk fits as well.
var proxmoxFlavors = func() string {
	b, _ := json.Marshal(map[string]any{ProxmoxTestFlavor: map[string]int{"cores": 1, "memory_mib": 1024, "disk_gib": 10}})
	return string(b)
}()

func proxmoxSettings(tg *Target, endpoint, token, fingerprint, node string) {
	tg.Offer, tg.Location = ProxmoxTestFlavor, node
	tg.Settings = map[string]string{
		"endpoint": endpoint, "api_token": token, "tls_fingerprint": fingerprint, "node": node, "flavors": proxmoxFlavors,
		"vmid_min": strconv.Itoa(ProxmoxTestVMIDMin), "vmid_max": strconv.Itoa(ProxmoxTestVMIDMax),
	}
}

// variableOr is the variable name of the set env (an account's, not the
// process's; see envOr), or fallback when it is empty.
func variableOr(env map[string]string, name, fallback string) string {
	if v := env[name]; v != "" {
		return v
	}
	return fallback
}
