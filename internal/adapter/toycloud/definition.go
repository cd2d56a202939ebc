// Package toycloud is the adapter of Toy Cloud, an imaginary cloud of
// servers with labels, one bearer token and regions, which
// internal/emulator/toycloud emulates: the worked example of a new backend
// (CONTRIBUTING.md, "Adding a backend"), kept in the tests. The provider
// registers it only when built with the testbackends tag
// (internal/provider/testbackend_toycloud.go), so the shipped binary and its docs
// never offer its block. It is written on the shared pieces: the client
// internal/adapter/rest with its classify table (rest.Codes) and bearer
// token (rest.Bearer), and the kit of a backend with labels in
// internal/adapter/marks (Labels.Create over adapter.CreateFlow,
// Labels.Managed, Labels.Update). It imports those and internal/adapter
// only. The API's JSON, as the server and size types spell it: a server is
// {"server": {id, name, size, image, region, status, ipv4, labels,
// created}}, a listing {"servers": […], "next_page"}, the sizes {"sizes":
// [{name, vcpus, memory_mib, regions, hourly}]}, an error {"error":
// {code, message}}.
package toycloud

import (
	"regexp"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Kind names the adapter; DefaultEndpoint is in a documentation range and
// never dialled.
const (
	Kind            = "toycloud"
	DefaultEndpoint = "https://api.toycloud.example/v1"
)

// The settings. api_key and region are named unlike any shipped adapter's,
// so the Terraform layer must reach them through their roles; the
// endpoint is named as every backend names it.
const (
	settingKey, settingRegion, settingEndpoint = "api_key", "region", "endpoint"
)

var (
	capabilities = adapter.Capabilities{adapter.CapPower, adapter.CapUpdate, adapter.CapList, adapter.CapCheck}
	nameRule     = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
	labelRule    = regexp.MustCompile(`^[a-z0-9]([-_.a-z0-9]{0,61}[a-z0-9])?$`)

	// rules are the Definition's, which Get also checks an id against.
	rules = adapter.Rules{
		MachineID: adapter.Rule{Text: "a positive number, the server's id",
			Check: func(id string) bool { n, err := strconv.Atoi(id); return err == nil && n > 0 && strconv.Itoa(n) == id }},
		MachineName: adapter.Rule{Check: nameRule.MatchString, Text: "lower-case letters, digits and dashes, at most 63"},
		LabelKey:    adapter.Rule{Check: labelRule.MatchString, Text: "lower-case letters, digits, dashes, underscores and dots, at most 63"},
		LabelValue:  adapter.Rule{Check: func(v string) bool { return v == "" || labelRule.MatchString(v) }, Text: "empty, or as a key"},
	}
)

// Definition is the adapter's registration: the provider's registry line
// names it.
func Definition() adapter.Definition {
	return adapter.Definition{
		Kind: Kind, Block: "toy_cloud", Capabilities: capabilities,
		Description:      "servers on Toy Cloud, an imaginary cloud kept for the tests",
		BlockDescription: "Toy Cloud servers: an imaginary cloud, kept in the tests as the worked example of a new backend.",
		Settings: []adapter.Setting{
			{Name: settingKey, Description: "secret reference to the API key", Required: true, Role: adapter.RoleSecret},
			{Name: settingRegion, Description: "where servers go when an instance names no location", Default: "north", Role: adapter.RoleLocation, Public: true},
			{Name: settingEndpoint, Description: "the API's base URL", Default: DefaultEndpoint, Role: adapter.RoleEndpoint, Scope: true,
				Check: func(v string) error {
					return adapter.CheckBaseURL(v, "the API key", "the api_key setting", DefaultEndpoint)
				}},
		},
		Notes: map[string]string{adapter.FieldOfferID: "a toy size, e.g. `tiny`", adapter.FieldImage: "`plain` or `plain-next`",
			adapter.FieldLocation: "a region, `north` or `south`"},
		Rules: rules,
		New: func(settings map[string]string, env adapter.Env) (adapter.Adapter, error) {
			return &account{api: newClient(settings[settingEndpoint], settings[settingKey], env), region: settings[settingRegion], clock: env.Clock}, nil
		},
	}
}
