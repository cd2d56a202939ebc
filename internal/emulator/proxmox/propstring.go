package proxmox

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// parsePropertyString is PVE's parse_property_string: "file=local:x,
// media=cdrom", "local:x,media=cdrom" (the value of the key marked
// default_key, written bare), "virtio=BC:24:…,bridge=vmbr0" (a key that is
// an alias of another, with keyAlias naming what it stands for: model=
// virtio, macaddr=BC:24:…). Empty parts are skipped (Perl's split drops a
// trailing ","), each value is checked against its key's schema and keys
// that are not optional must be there. The message is "" for a good value,
// else PVE's "format error" with each key's reason.
func parsePropertyString(keys map[string]*schema, s string) (map[string]string, string) {
	out := map[string]string{}
	defaultKey := ""
	for k, p := range keys {
		if p.DefaultKey != 0 {
			defaultKey = k
		}
	}
	for _, part := range strings.Split(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		k, v, hasKey := strings.Cut(part, "=")
		if !hasKey {
			if defaultKey == "" {
				return nil, "value without key, but schema does not define a default key"
			}
			if _, dup := out[defaultKey]; dup {
				return nil, "duplicate key in comma-separated list property: " + defaultKey
			}
			out[defaultKey] = part
			continue
		}
		if k == "" || v == "" {
			return nil, "missing key in comma-separated list property"
		}
		if _, dup := out[k]; dup {
			return nil, "duplicate key in comma-separated list property: " + k
		}
		k, msg := resolveAlias(keys, out, k)
		if msg != "" {
			return nil, msg
		}
		out[k] = v
	}
	if msg := checkProperties(keys, out); msg != "" {
		return nil, msg
	}
	return out, ""
}

// resolveAlias is the key that k stands for: k itself, or the key k is an
// alias of. A keyAlias pair also records in out the key its alias names
// ("virtio=BC:…" is macaddr=BC:… with model=virtio), once. The message
// is "" unless k is no key of the string or its keyAlias is set already.
func resolveAlias(keys map[string]*schema, out map[string]string, k string) (string, string) {
	p := keys[k]
	if p != nil && p.Alias != "" {
		if p.KeyAlias != "" {
			if _, dup := out[p.KeyAlias]; dup {
				return "", fmt.Sprintf("key alias '%s' is already defined", p.KeyAlias)
			}
			out[p.KeyAlias] = k
		}
		k, p = p.Alias, keys[p.Alias]
	}
	if p == nil {
		return "", "invalid key in comma-separated list property: " + k
	}
	return k, ""
}

// checkProperties holds the parsed values to their keys' schemas, in the
// keys' order: a value that fails its check, or a key that is neither
// optional, defaulted nor there, is a reason. The message is "" with no
// reason, else PVE's "format error" with each.
func checkProperties(keys map[string]*schema, values map[string]string) string {
	var reasons []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		p := keys[k]
		if p.Alias != "" {
			continue
		}
		v, ok := values[k]
		switch {
		case !ok && p.Optional == 0 && p.Default == nil:
			reasons = append(reasons, k+": property is missing and it is not optional")
		case ok && p.check(v) != "":
			reasons = append(reasons, k+": "+p.check(v))
		}
	}
	if len(reasons) > 0 {
		return "format error\n" + strings.Join(reasons, "\n")
	}
	return ""
}

// printPropertyString is PVE's print_property_string: the default key's
// value bare and first, a keyAlias pair as "model=macaddr", the other keys
// sorted.
func printPropertyString(keys map[string]*schema, values map[string]string) string {
	var parts []string
	aliased := map[string]string{} // keyAlias target (model) → alias (macaddr)
	for _, p := range keys {
		if p.KeyAlias != "" {
			aliased[p.KeyAlias] = p.Alias
		}
	}
	done := map[string]bool{}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		// A default key that an alias pair names (net's model) is
		// printed in the pair.
		if _, paired := aliased[k]; keys[k].DefaultKey != 0 && !paired {
			if v, ok := values[k]; ok {
				parts = append(parts, v)
				done[k] = true
			}
		}
	}
	for target, alias := range aliased {
		if v, ok := values[target]; ok {
			parts = append(parts, v+"="+values[alias])
			done[target], done[alias] = true, true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if !done[k] {
			parts = append(parts, k+"="+values[k])
		}
	}
	return strings.Join(parts, ",")
}
