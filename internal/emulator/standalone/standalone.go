// Package standalone is what an emulator hands the standalone emulator
// command (tools/emulator) to be served there, and the acceptance harness
// (internal/acctest) to be tested on through it, without either naming
// the backend: a Registration. The command lists the registrations it
// serves beside the three shipped emulators, which it wires by hand for
// what they share (the Robot SSH farm, the first-boot server, Proxmox VE's
// own TLS port). It imports the standard library only.
package standalone

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"
	"time"
)

// Registration is one backend's emulator, as the command serves it.
type Registration struct {
	// Name is the backend's adapter kind. The command mounts the API on
	// /Name of its port and prints "Name URL" and "Name-testacc VAR=VALUE
	// ..." (the Test values, named by Variable).
	Name string
	// Start starts one emulator with credentials of its own.
	Start func(Options) (Served, error)
}

// Options are what the command's flags say to every emulator.
type Options struct {
	// Latency is the delay before every API request, the -latency flag.
	Latency time.Duration
}

// Served is one started emulator.
type Served struct {
	// Handler serves the API below Base, and its control API (request
	// counts, faults) below Control, a path the command serves unchanged:
	// /_emulator/Name by convention.
	Handler       http.Handler
	Base, Control string
	// Test is what an acceptance test needs to reach the emulator whose API
	// is at apiURL (the mount and Base included): the account's settings by
	// name, and "offer", "image" and "location", what a lifecycle test
	// creates.
	Test func(apiURL string) map[string]string
	// Stop stops what Start started beyond the handler; nil when nothing.
	Stop func()
}

// Variable is the environment variable that carries key of backend kind
// to an acceptance run: COMPUTE_TEST_TOYCLOUD_API_KEY for kind toycloud,
// key api_key.
func Variable(kind, key string) string {
	return "COMPUTE_TEST_" + strings.ToUpper(kind+"_"+key)
}

// Fresh is a random credential for one start, prefix-hex.
func Fresh(prefix string) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}
