package proxmox

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Kind is the adapter kind accounts name.
const Kind = "proxmox"

// The settings' names.
const (
	settingEndpoint       = "endpoint"
	settingAPIToken       = "api_token"
	settingTLSFingerprint = "tls_fingerprint"
	settingCAFile         = "ca_file"
	settingInsecure       = "insecure_skip_tls_verify"
	settingNode           = "node"
	settingVMIDMin        = "vmid_min"
	settingVMIDMax        = "vmid_max"
	settingFlavors        = "flavors"
	settingStorage        = "storage"
	settingFullClone      = "full_clone"
	settingIPConfig       = "ipconfig"
	settingCIUser         = "ci_user"
	settingSSHPublicKeys  = "ssh_public_keys"
	settingSnippetStorage = "snippet_storage"
	settingSSHUser        = "ssh_user"
	settingSSHPrivateKey  = "ssh_private_key"
	settingSSHHostKeys    = "ssh_host_keys"
	settingSSHPort        = "ssh_port"
	settingAgentTimeout   = "agent_timeout"
)

const exampleEndpoint = "https://pve1.example.com:8006"

// Definition describes the Proxmox VE adapter for the registry.
func Definition() adapter.Definition { return definition(defaultOptions()) }

func definition(opts options) adapter.Definition {
	return adapter.Definition{
		Kind:        Kind,
		Description: "Proxmox VE virtual machines cloned from templates, through the PVE API.",
		BlockDescription: "Proxmox VE virtual machines (QEMU), cloned from a template and configured through cloud-init, " +
			"through the PVE API with an API token. A machine's VMID is derived from its name (a slot in " +
			"`vmid_min`..`vmid_max`), so parallel creates never race for an id; clones of one template are queued " +
			"inside the provider, so they never time out on the template's lock; refreshes ask the guest agent once, " +
			"within `agent_timeout`, and never wait for it. Do not change the VMID range while instances exist.",
		Capabilities: capabilities,
		Rules:        rules,
		Notes:        notes,
		Settings: []adapter.Setting{
			// PROXMOX_VE_*: the variables bpg/proxmox, the provider
			// Proxmox users run, reads.
			{Name: settingEndpoint, Required: true, Env: "PROXMOX_VE_ENDPOINT", Role: adapter.RoleEndpoint, Scope: true, Check: checkEndpoint,
				Description: "base URL of the PVE API, e.g. `" + exampleEndpoint + "` (the client appends `/api2/json`)"},
			{Name: settingAPIToken, Required: true, Env: "PROXMOX_VE_API_TOKEN", Role: adapter.RoleSecret,
				Description: "secret reference to the API token as PVE shows it when it is made, `USER@REALM!TOKENID=SECRET` (the form bpg/proxmox takes too)"},
			{Name: settingTLSFingerprint, Check: checkTLSFingerprint, Public: true,
				Description: "SHA-256 fingerprint of the server's certificate (32 hex pairs, colons optional), as `pvenode cert info` " +
					"or the GUI's Certificates panel shows it; when set, only that certificate is accepted and the chain is not verified"},
			{Name: settingCAFile, Check: checkCAFile,
				Description: "absolute path to a PEM bundle of the CAs that sign the server's certificate, in place of the system's roots; not together with tls_fingerprint or insecure_skip_tls_verify"},
			{Name: settingInsecure, Default: "false", Check: checkBool, Warn: warnInsecure,
				Description: "true turns certificate verification off (every plan warns); prefer tls_fingerprint"},
			{Name: settingNode, Role: adapter.RoleLocation, Check: checkNodeName,
				Description: "node machines are created on when the instance names no location; without it the online node with the most free memory that fits the flavor"},
			{Name: settingVMIDMin, Default: "100000", Check: checkVMID,
				Description: "lowest VMID machines get; with vmid_max the range of slots a machine's name is hashed into"},
			{Name: settingVMIDMax, Default: "199999", Check: checkVMID,
				Description: "highest VMID machines get"},
			{Name: settingFlavors, Required: true, Check: checkFlavors, Public: true,
				Description: "JSON object of the offers: name → `{cores, memory_mib, disk_gib, template?}`, written with " +
					"`jsonencode({small = {cores = 2, memory_mib = 2048, disk_gib = 20}})`; `template` restricts a flavor to one template name"},
			{Name: settingStorage, Check: checkStorage,
				Description: "storage full clones and the cloud-init drive go to; empty keeps the template's"},
			{Name: settingFullClone, Default: "false", Check: checkBool,
				Description: "true makes full clones; false (PVE's default for templates) linked clones, which are fast"},
			{Name: settingIPConfig, Default: "ip=dhcp,ip6=auto",
				Description: "cloud-init network configuration of the first NIC (`ipconfig0`)"},
			{Name: settingCIUser,
				Description: "cloud-init user (`ciuser`)"},
			{Name: settingSSHPublicKeys,
				Description: "OpenSSH public keys, one per line, cloud-init installs for ci_user (`sshkeys`)"},
			{Name: settingSnippetStorage, Check: checkStorage,
				Description: "a storage with content `snippets` (e.g. `local`); with the ssh_* settings it enables user data, written to the node over SFTP"},
			{Name: settingSSHUser, Default: "root",
				Description: "user the snippets are written as over SFTP"},
			{Name: settingSSHPrivateKey, Role: adapter.RoleSecret,
				Description: "secret reference to the private key (OpenSSH PEM) the snippets are written with, used only after a node's host key passed its pin"},
			{Name: settingSSHHostKeys, Check: checkHostKeys,
				Description: "comma-separated pins of the nodes' SSH host keys (`SHA256:base64`, as `ssh-keygen -lf` shows them); a node's key must match one"},
			{Name: settingSSHPort, Default: "22", Check: checkPort,
				Description: "TCP port of the nodes' SSH servers"},
			{Name: settingAgentTimeout, Default: "2s", Check: checkDuration,
				Description: "bound on one guest agent request of a read (the machine's addresses); a silent agent leaves the machine pending, never a hanging plan"},
		},
		New: func(settings map[string]string, env adapter.Env) (adapter.Adapter, error) {
			return newAccount(settings, env, opts)
		},
	}
}

// warnInsecure is the warning every plan shows while verification is off.
func warnInsecure(v string) string {
	if v != "true" {
		return ""
	}
	return "the server's certificate is not verified, so anyone on the path can pose as the cluster and read the API token; " +
		"set tls_fingerprint to the certificate's SHA-256 (pvenode cert info) or ca_file, and remove insecure_skip_tls_verify"
}

// capabilities are the optional interfaces account implements, declared
// once, here, for Definition.
var capabilities = adapter.Capabilities{
	adapter.CapPower, adapter.CapUpdate, adapter.CapList, adapter.CapInventory, adapter.CapCheck, adapter.CapValidate,
	adapter.CapShutdown, adapter.CapReboot, adapter.CapReset,
}

var notes = map[string]string{
	adapter.FieldName:         "the VM name, a DNS name (letters, digits and hyphens, dot-separated labels, at most 63 characters each)",
	adapter.FieldLabels:       "Proxmox keeps tags, not key/value labels: only an empty map",
	adapter.FieldOfferID:      "a flavor name of the account's `flavors` setting",
	adapter.FieldImage:        "the name of a VM template (`template: 1`), e.g. `ubuntu-24.04-cloud`; addresses come from the guest agent, so the template's OS needs qemu-guest-agent installed and enabled (the provider turns the VM's `agent` option on)",
	adapter.FieldUserData:     "written as a cloud-init snippet over SFTP when the account sets snippet_storage and the ssh_* settings; refused otherwise (except empty or `#cloud-config`)",
	adapter.FieldLocation:     "a node name, e.g. `pve1`; empty picks the online node with the most free memory",
	adapter.FieldPricePerHour: "always 0: Proxmox has no prices",
	adapter.NoteQuery: "a VM cloned from a template does not say which one, so each VM is generated with `image = null`; one " +
		"whose cores and memory no flavor of the account has is generated with `offer_id = null` too: add a flavor of its size " +
		"to the account and write its name in, and the VM takes it in place",
	adapter.NoteRescue: "attach a rescue ISO (e.g. SystemRescue) as the VM's CD drive, boot from it through the VM's console in the " +
		"Proxmox VE web interface, then restore the boot order",
}

var rules = adapter.Rules{
	MachineID:   adapter.Rule{Check: validVMID, Text: "a VMID, a decimal number from 100 to 999999999"},
	MachineName: adapter.Rule{Check: validName, Text: "a DNS name: labels of letters, digits and hyphens (not at either end), at most 63 characters each, separated by dots"},
	LabelKey:    adapter.Rule{Check: func(string) bool { return false }, Text: "absent: Proxmox keeps tags, not key/value labels"},
	LabelValue:  adapter.Rule{Check: func(string) bool { return false }, Text: "absent: Proxmox keeps tags, not key/value labels"},
}

func validVMID(v string) bool {
	n, err := strconv.ParseUint(v, 10, 64)
	return err == nil && strconv.FormatUint(n, 10) == v && n >= 100 && n <= 999999999
}

var dnsLabel = regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$`)

func validName(v string) bool {
	if v == "" || len(v) > 253 {
		return false
	}
	for _, l := range strings.Split(v, ".") {
		if !dnsLabel.MatchString(l) {
			return false
		}
	}
	return true
}

func checkEndpoint(v string) error {
	return adapter.CheckBaseURL(v, "the API token", "the api_token setting", exampleEndpoint)
}

var fingerprintHex = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)

// normFingerprint is a fingerprint as 64 lower-case hex digits; "" when
// v is none.
func normFingerprint(v string) string {
	s := strings.ReplaceAll(v, ":", "")
	if !fingerprintHex.MatchString(s) {
		return ""
	}
	return strings.ToLower(s)
}

func checkTLSFingerprint(v string) error {
	if normFingerprint(v) == "" {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a SHA-256 fingerprint (32 hex pairs, colons optional); copy it from `pvenode cert info` on the node or the GUI's Certificates panel")
	}
	return nil
}

func checkCAFile(v string) error {
	if !filepath.IsAbs(v) {
		return adapter.Errorf(adapter.InvalidConfig, "it is not an absolute path; give the full path of a PEM CA bundle")
	}
	return nil
}

// loadCAFile is read when a client is built: a file that is not there
// yet at plan time is refused then, naming the path (not a secret).
func loadCAFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, adapter.Errorf(adapter.InvalidConfig, "ca_file %s cannot be read; check the path and its permissions", path).WithField(settingCAFile)
	}
	return data, nil
}

var nodeName = regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$`)

func checkNodeName(v string) error {
	if !nodeName.MatchString(v) {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a node name (letters, digits and hyphens); use a name `pvecm nodes` lists")
	}
	return nil
}

// storageID is PVE's storage identifier (pve-storage-id). A storage is
// written into property strings (ide2=STORAGE:cloudinit,
// cicustom=user=STORAGE:snippets/…), where a comma, colon or equals sign
// would add properties of its own.
var storageID = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_.-]*[a-zA-Z0-9]$`)

func checkStorage(v string) error {
	if v != "" && !storageID.MatchString(v) {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a storage ID (a letter, then letters, digits, hyphens, underscores or dots, ending in a letter or digit); use a storage `pvesm status` lists")
	}
	return nil
}

func checkVMID(v string) error {
	if !validVMID(v) {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a VMID; use a number from 100 to 999999999")
	}
	return nil
}

func checkBool(v string) error {
	if v != "true" && v != "false" {
		return adapter.Errorf(adapter.InvalidConfig, "use true or false")
	}
	return nil
}

func checkPort(v string) error {
	if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 65535 {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a TCP port; use a number from 1 to 65535, usually 22")
	}
	return nil
}

func checkDuration(v string) error {
	if d, err := time.ParseDuration(v); err != nil || d <= 0 || d > time.Minute {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a duration up to a minute; use e.g. 2s or 500ms")
	}
	return nil
}

func checkHostKeys(v string) error {
	for _, p := range strings.Split(v, ",") {
		p = strings.TrimSpace(p)
		if !strings.HasPrefix(p, "SHA256:") || len(p) < 20 {
			return adapter.Errorf(adapter.InvalidConfig, "pin %q is not a SHA256 host key fingerprint; use `ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub` on each node and list the SHA256:… values, comma-separated", p)
		}
	}
	return nil
}
