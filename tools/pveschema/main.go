// Command pveschema cuts the routes the Proxmox VE emulator serves out of
// PVE's API schema (pve-apidata.js, the apiSchema array the API viewer
// ships) into internal/emulator/proxmox/pveschema.json, which the
// emulator embeds to check parameters and tests use to check answers.
// Descriptions and permissions are dropped; parameters and returns are kept
// as PVE writes them.
//
//	go run ./tools/pveschema -spec /path/to/pve-apidata.js [-out internal/emulator/proxmox/pveschema.json]
//
// It imports the Proxmox emulator (for its routes) and the standard
// library only.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

func main() {
	spec := flag.String("spec", "", "path of PVE's pve-apidata.js")
	out := flag.String("out", "internal/emulator/proxmox/pveschema.json", "file to write")
	flag.Parse()
	if err := run(*spec, *out); err != nil {
		fmt.Fprintln(os.Stderr, "pveschema:", err)
		os.Exit(1)
	}
}

type node struct {
	Path     string                     `json:"path"`
	Info     map[string]json.RawMessage `json:"info"`
	Children []node                     `json:"children"`
}

func run(spec, out string) error {
	if spec == "" {
		return errors.New("-spec is required")
	}
	raw, err := os.ReadFile(spec)
	if err != nil {
		return err
	}
	// The file is JavaScript: "const apiSchema = [ … ];" around JSON.
	start, end := bytes.IndexByte(raw, '['), bytes.LastIndexByte(raw, ']')
	if start < 0 || end < start {
		return errors.New("no apiSchema array in " + spec)
	}
	var tree []node
	if err := json.Unmarshal(raw[start:end+1], &tree); err != nil {
		return err
	}
	infos := map[string]json.RawMessage{}
	var walk func([]node)
	walk = func(ns []node) {
		for _, n := range ns {
			for method, info := range n.Info {
				infos[method+" "+n.Path] = info
			}
			walk(n.Children)
		}
	}
	walk(tree)
	cut := map[string]map[string]any{}
	routes := proxmox.SchemaRoutes()
	slices.Sort(routes)
	for _, r := range routes {
		info, ok := infos[r]
		if !ok {
			return fmt.Errorf("route %s is not in %s", r, spec)
		}
		var m map[string]any
		if err := json.Unmarshal(info, &m); err != nil {
			return err
		}
		method, path, _ := strings.Cut(r, " ")
		if cut[path] == nil {
			cut[path] = map[string]any{}
		}
		cut[path][method] = map[string]any{"parameters": strip(m["parameters"]), "returns": strip(m["returns"])}
	}
	b, err := json.MarshalIndent(cut, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

// strip drops the prose (descriptions, links, renderers) from a schema;
// the checks need only the types, formats and bounds.
func strip(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range v {
			switch k {
			case "description", "verbose_description", "format_description", "links", "renderer", "instance-types":
				// A property of that name inside "properties" is kept.
				if _, isSchema := val.(map[string]any); !isSchema || k == "links" {
					continue
				}
			}
			out[k] = strip(val)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, val := range v {
			out[i] = strip(val)
		}
		return out
	}
	return v
}
