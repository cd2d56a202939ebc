package hcloud

import (
	"net"
	"net/url"
	"regexp"
	"strings"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Kind is the adapter kind accounts name.
const Kind = "hcloud"

// DefaultLocation is where machines go when neither the account nor the
// request names a location.
const DefaultLocation = "fsn1"

// Definition describes the Hetzner Cloud adapter for the registry.
func Definition() adapter.Definition { return definition(defaultOptions()) }

func definition(opts options) adapter.Definition {
	return adapter.Definition{
		Kind:         Kind,
		Description:  "Hetzner Cloud virtual servers, through the Hetzner Cloud API.",
		Capabilities: capabilities,
		Rules:        rules,
		Settings: []adapter.Setting{
			{
				Name:        "token",
				Description: "secret reference to a Read & Write API token of the Hetzner Cloud project, e.g. env://HCLOUD_TOKEN",
				Required:    true,
				Secret:      true,
			},
			{
				Name:        "location",
				Description: "location machines are created in when the instance names none, e.g. fsn1, nbg1, hel1, ash, hil, sin",
				Default:     DefaultLocation,
				Check:       checkLocationName,
			},
			{
				Name:        "endpoint",
				Description: "base URL of the Hetzner Cloud API; an https URL, or http only to a loopback host (an emulator)",
				Default:     hcloud.Endpoint,
				Scope:       true,
				Check:       checkEndpoint,
			},
		},
		New: func(settings map[string]string, env adapter.Env) (adapter.Adapter, error) {
			return newAccount(settings, env, opts)
		},
	}
}

// capabilities are the optional interfaces account implements.
var capabilities = adapter.Capabilities{
	adapter.CapPower, adapter.CapUpdate, adapter.CapList, adapter.CapInventory, adapter.CapCheck, adapter.CapValidate,
	adapter.CapShutdown, adapter.CapReboot, adapter.CapReset,
}

// locationName is the API's own pattern for location names.
var locationName = regexp.MustCompile(`^[a-z0-9]+(-?[a-z0-9]*)*$`)

// checkLocationName does not repeat the value: callers show it redacted.
func checkLocationName(v string) error {
	if !locationName.MatchString(v) {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a Hetzner Cloud location name; use a name such as fsn1, nbg1, hel1, ash, hil or sin")
	}
	return nil
}

// checkEndpoint accepts https anywhere and plain http only to a loopback
// host, so a token is never sent in clear text over a network. Messages do
// not repeat the value, which callers show redacted (adapter.Redacted): a
// user part, path, query or fragment may hold a credential.
func checkEndpoint(v string) error {
	u, err := url.Parse(v)
	if err == nil && u.User != nil {
		return adapter.Errorf(adapter.InvalidConfig, "the endpoint carries credentials (user@ or user:password@); remove them, the API token comes from the token setting")
	}
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return adapter.Errorf(adapter.InvalidConfig, "it is not a base URL (a base URL has no user part, query or fragment); use https://api.hetzner.cloud/v1 or an https URL of a compatible API")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if isLoopback(u.Hostname()) {
			return nil
		}
		return adapter.Errorf(adapter.InvalidConfig, "it uses plain http to a host that is not loopback, which would send the API token unencrypted; use https, or http only to 127.0.0.1, ::1 or localhost")
	}
	return adapter.Errorf(adapter.InvalidConfig, "it has scheme %s; use https (or http to a loopback host)", adapter.Quoted(adapter.Redacted(u.Scheme)))
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
