package hcloud

import (
	"regexp"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// rules are the API's own rules for what the user writes, declared in the
// definition so that a plan names a bad value before anything is created.
// They follow the API description (specs/hcloud-cloud-openapi.json):
// server names "must be unique per Project and a valid hostname as per RFC
// 1123 (i.e. may only contain letters, digits, periods, and dashes)", and
// the "Labels" section for keys and values.
var rules = adapter.Rules{
	MachineID: adapter.Rule{
		Check: func(id string) bool { _, err := parseID(id); return err == nil },
		Text:  idRule,
	},
	MachineName: adapter.Rule{
		Check: validHostname,
		Text: "a valid hostname (RFC 1123), as Hetzner Cloud requires of server names: letters, digits and dashes " +
			"in parts of 1 to 63 characters separated by dots, each part beginning and ending with a letter or digit, " +
			"at most 253 characters in all",
	},
	LabelKey: adapter.Rule{
		Check: validLabelKey,
		Text: "a Hetzner Cloud label key: a name of at most 63 characters that begins and ends with a letter or digit and " +
			"has only letters, digits, dashes, underscores and dots between, optionally after a DNS subdomain prefix and a " +
			"slash (example.com/role); the prefixes hetzner.cloud/ and " + labelMarks.Prefix + " are reserved",
	},
	LabelValue: adapter.Rule{
		Check: validLabelValue,
		Text: "a Hetzner Cloud label value: empty, or at most 63 characters that begin and end with a letter or digit " +
			"and have only letters, digits, dashes, underscores and dots between",
	},
}

var (
	hostnamePart = regexp.MustCompile(`^[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$`)
	labelName    = regexp.MustCompile(`^[a-zA-Z0-9]([-_.a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$`)
	dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

func validHostname(name string) bool {
	if name == "" || len(name) > 253 {
		return false
	}
	for _, part := range strings.Split(name, ".") {
		if !hostnamePart.MatchString(part) {
			return false
		}
	}
	return true
}

// validLabelKey also refuses the reserved prefixes: the API's own, and the
// adapter's, whose labels are its marks.
func validLabelKey(k string) bool {
	if strings.HasPrefix(k, "hetzner.cloud/") || labelMarks.Reserved(k) {
		return false
	}
	prefix, name, hasPrefix := strings.Cut(k, "/")
	if !hasPrefix {
		return labelName.MatchString(k)
	}
	return len(prefix) <= 253 && dnsSubdomain.MatchString(prefix) && labelName.MatchString(name)
}
