// Package toycloud is the adapter of Toy Cloud, an imaginary cloud of
// servers with labels, one bearer token and regions, which
// internal/emulator/toycloud emulates. It is the worked example of a new
// backend (CONTRIBUTING.md, "Adding a backend") and is kept in the tests:
// the provider registers it only when built with the testbackends tag
// (internal/provider/testbackends.go), so the shipped binary and its docs
// never offer its account block.
//
// It is what a newcomer writes on top of the shared pieces: the create
// algorithm is adapter.CreateFlow, the HTTP client internal/adapter/rest,
// the adoption rules adapter.Adoptable. Its marks are labels under
// labelPrefix. It imports the contract and internal/adapter/rest only.
package toycloud

import (
	"regexp"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Kind names the adapter; the account block is toy_cloud.
const Kind = "toycloud"

// The settings. They are named unlike any shipped adapter's on purpose:
// the Terraform layer must reach them through their roles.
const (
	settingKey      = "api_key"
	settingRegion   = "region"
	settingEndpoint = "endpoint"
)

// DefaultEndpoint is the API's base URL; documentation range, never dialled.
const DefaultEndpoint = "https://api.toycloud.example/v1"

// capabilities are the optional interfaces account implements.
var capabilities = adapter.Capabilities{adapter.CapPower, adapter.CapUpdate, adapter.CapList, adapter.CapCheck}

var (
	nameRule  = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
	labelRule = regexp.MustCompile(`^[a-z0-9]([-_.a-z0-9]{0,61}[a-z0-9])?$`)
)

// Definition is the adapter's registration, the one value the provider's
// registry line names.
func Definition() adapter.Definition {
	return adapter.Definition{
		Kind:             Kind,
		Description:      "servers on Toy Cloud, an imaginary cloud kept for the tests",
		Block:            "toy_cloud",
		BlockDescription: "Toy Cloud servers: an imaginary cloud, kept in the tests as the worked example of a new backend.",
		Capabilities:     capabilities,
		Settings: []adapter.Setting{
			{Name: settingKey, Description: "secret reference to the Toy Cloud API key", Required: true, Role: adapter.RoleSecret, Env: "TOYCLOUD_API_KEY"},
			{Name: settingRegion, Description: "where servers go when an instance names no location", Default: "north", Role: adapter.RoleLocation, Public: true},
			{Name: settingEndpoint, Description: "the API's base URL", Default: DefaultEndpoint, Role: adapter.RoleEndpoint, Scope: true,
				Check: func(v string) error {
					return adapter.CheckBaseURL(v, "the API key", "the api_key setting", DefaultEndpoint+" or the emulator's http URL on loopback")
				}},
		},
		Notes: map[string]string{
			adapter.FieldOfferID:  "a toy size, e.g. `tiny`",
			adapter.FieldImage:    "`plain` or `plain-next`",
			adapter.FieldLocation: "a region, `north` or `south`",
		},
		Rules: adapter.Rules{
			MachineID: adapter.Rule{Check: func(id string) bool { n, err := strconv.Atoi(id); return err == nil && n > 0 && strconv.Itoa(n) == id },
				Text: "a positive number, the server's id"},
			MachineName: adapter.Rule{Check: nameRule.MatchString, Text: "lower-case letters, digits and dashes, at most 63"},
			LabelKey:    adapter.Rule{Check: func(k string) bool { return labelRule.MatchString(k) }, Text: "lower-case letters, digits, dashes, underscores and dots, at most 63"},
			LabelValue:  adapter.Rule{Check: func(v string) bool { return v == "" || labelRule.MatchString(v) }, Text: "empty, or as a key"},
		},
		New: func(settings map[string]string, env adapter.Env) (adapter.Adapter, error) {
			return newAccount(settings, env), nil
		},
	}
}
