package toycloud

import "github.com/seedcompute/terraform-provider-compute/internal/emulator/standalone"

// Standalone is the emulator's registration for the standalone emulator
// command, with a fresh token each start.
var Standalone = standalone.Registration{Name: "toycloud", Start: func(o standalone.Options) (standalone.Served, error) {
	token := standalone.Fresh("toycloud")
	test := func(api string) map[string]string {
		return map[string]string{"api_key": token, "endpoint": api, "offer": "tiny", "image": "plain", "location": "north"}
	}
	return standalone.Served{Handler: New(Options{Token: token, Latency: o.Latency}), Base: BasePath, Control: ControlPrefix, Test: test}, nil
}}
