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
		p := keys[k]
		if p != nil && p.Alias != "" {
			if p.KeyAlias != "" {
				if _, dup := out[p.KeyAlias]; dup {
					return nil, fmt.Sprintf("key alias '%s' is already defined", p.KeyAlias)
				}
				out[p.KeyAlias] = k
			}
			k, p = p.Alias, keys[p.Alias]
		}
		if p == nil {
			return nil, "invalid key in comma-separated list property: " + k
		}
		out[k] = v
	}
	var reasons []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		p := keys[k]
		if p.Alias != "" {
			continue
		}
		v, ok := out[k]
		switch {
		case !ok && p.Optional == 0 && p.Default == nil:
			reasons = append(reasons, k+": property is missing and it is not optional")
		case ok && p.check(v) != "":
			reasons = append(reasons, k+": "+p.check(v))
		}
	}
	if len(reasons) > 0 {
		return nil, "format error\n" + strings.Join(reasons, "\n")
	}
	return out, ""
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
