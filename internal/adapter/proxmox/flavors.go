package proxmox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// flavor is one entry of the flavors setting: what an offer makes.
type flavor struct {
	Name      string `json:"-"`
	Cores     int    `json:"cores"`
	MemoryMiB int    `json:"memory_mib"`
	DiskGiB   int    `json:"disk_gib"`
	Template  string `json:"template,omitempty"`
}

// parseFlavors reads the flavors setting, every field checked, with a
// message naming the flavor and the field.
func parseFlavors(v string) (map[string]flavor, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(v), &raw); err != nil {
		return nil, adapter.Errorf(adapter.InvalidConfig, "it is not a JSON object of flavors; write it with jsonencode({small = {cores = 2, memory_mib = 2048, disk_gib = 20}})")
	}
	if len(raw) == 0 {
		return nil, adapter.Errorf(adapter.InvalidConfig, "it names no flavor; give at least one, e.g. jsonencode({small = {cores = 2, memory_mib = 2048, disk_gib = 20}})")
	}
	// Every problem of every flavor is told at once, in the order of the
	// flavors' names, so one plan shows all there is to fix.
	var problems []string
	out := map[string]flavor{}
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		if !validFlavorName(name) {
			problems = append(problems, fmt.Sprintf("flavor %q: a flavor name is letters, digits, '-', '_' and '.', up to 63 characters", name))
			continue
		}
		var f flavor
		dec := json.NewDecoder(bytes.NewReader(raw[name]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			problems = append(problems, fmt.Sprintf("flavor %q: %s; its fields are cores, memory_mib, disk_gib (whole numbers) and template (a template name)", name, jsonProblem(err)))
			continue
		}
		if f.Cores < 1 || f.Cores > 512 {
			problems = append(problems, fmt.Sprintf("flavor %q: cores must be from 1 to 512, not %d", name, f.Cores))
		}
		if f.MemoryMiB < 16 {
			problems = append(problems, fmt.Sprintf("flavor %q: memory_mib must be at least 16 (MiB), e.g. 2048, not %d", name, f.MemoryMiB))
		}
		if f.DiskGiB < 1 {
			problems = append(problems, fmt.Sprintf("flavor %q: disk_gib must be at least 1 (GiB), not %d", name, f.DiskGiB))
		}
		f.Name = name
		out[name] = f
	}
	if len(problems) > 0 {
		return nil, adapter.Errorf(adapter.InvalidConfig, "%s", strings.Join(problems, "; "))
	}
	return out, nil
}

func jsonProblem(err error) string {
	var typ *json.UnmarshalTypeError
	if e, ok := err.(*json.UnmarshalTypeError); ok {
		typ = e
		return "field " + typ.Field + " has the wrong type"
	}
	if strings.Contains(err.Error(), "unknown field") {
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	return "it is not a JSON object"
}

func validFlavorName(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

func checkFlavors(v string) error {
	_, err := parseFlavors(v)
	return err
}

// flavorNames lists the flavors, sorted, for messages.
func flavorNames(fs map[string]flavor) string {
	names := make([]string, 0, len(fs))
	for n := range fs {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
