package proxmox

import (
	"net"
	"regexp"
	"strconv"
	"strings"
)

// namedFormats are the checks of PVE's registered string formats the
// emulator's routes use (PVE::JSONSchema and qemu-server register them);
// a format not named here is taken as it comes.
var namedFormats = map[string]func(string) bool{
	"pve-node":        regexp.MustCompile(`(?i)^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`).MatchString,
	"pve-vmid":        func(v string) bool { n, err := strconv.Atoi(v); return err == nil && n >= 100 && n <= 999999999 },
	"pve-storage-id":  regexp.MustCompile(`(?i)^[a-z][a-z0-9._-]*[a-z0-9]$`).MatchString,
	"pve-configid":    regexp.MustCompile(`(?i)^[a-z][a-z0-9_-]+$`).MatchString,
	"pve-poolid":      regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.\-/]*$`).MatchString,
	"pve-tag":         tagRE.MatchString,
	"pve-bridge-id":   regexp.MustCompile(`(?i)^[-_.\w\d]+$`).MatchString,
	"mac-addr":        regexp.MustCompile(`(?i)^[0-9a-f][02468ace](?::[0-9a-f]{2}){5}$`).MatchString,
	"ip":              func(v string) bool { return net.ParseIP(v) != nil },
	"ipv4":            func(v string) bool { ip := net.ParseIP(v); return ip != nil && ip.To4() != nil },
	"ipv6":            func(v string) bool { ip := net.ParseIP(v); return ip != nil && ip.To4() == nil },
	"CIDR":            func(v string) bool { _, _, err := net.ParseCIDR(v); return err == nil },
	"CIDRv4":          func(v string) bool { ip, _, err := net.ParseCIDR(v); return err == nil && ip.To4() != nil },
	"CIDRv6":          func(v string) bool { ip, _, err := net.ParseCIDR(v); return err == nil && ip.To4() == nil },
	"dns-name":        dnsNameRE.MatchString,
	"address":         func(v string) bool { return net.ParseIP(v) != nil || dnsNameRE.MatchString(v) },
	"pve-volume-id":   volumeIDRE.MatchString,
	"disk-size":       sizeRE.MatchString,
	"urlencoded":      regexp.MustCompile(`^[-%a-zA-Z0-9_.!~*'()]*$`).MatchString,
	"pve-qm-cicustom": func(string) bool { return true },
	"pve-vm-cpu-conf": func(string) bool { return true },
	"pve-volume-id-or-qm-path": func(v string) bool {
		return volumeIDRE.MatchString(v) || strings.HasPrefix(v, "/") || v == "none" || v == "cdrom"
	},
}

var dnsNameRE = regexp.MustCompile(`(?i)^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)

// volumeIDRE is a volume id, "STORAGE:NAME" (PVE's parse_volume_id).
var volumeIDRE = regexp.MustCompile(`(?i)^([a-z][a-z0-9._-]*[a-z0-9]):(.+)$`)

// checkFormat checks v against the named format: "" when it is good or
// the format is not one the emulator knows. A format ending in "-list"
// is a list of the format before it, split on commas, semicolons and
// spaces, as PVE splits it.
func checkFormat(name, v string) string {
	if base, ok := strings.CutSuffix(name, "-list"); ok {
		for _, item := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\x00' }) {
			if msg := checkFormat(base, item); msg != "" {
				return msg
			}
		}
		return ""
	}
	check, ok := namedFormats[name]
	if !ok || check(v) {
		return ""
	}
	return "value does not look like a valid " + strings.TrimPrefix(name, "pve-")
}
