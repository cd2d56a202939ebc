package acctest

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
)

// TargetKind says what a test's API is.
type TargetKind int

// The targets, from the most to the least under the test's control.
const (
	// InProcess is a fresh emulator per test in the test process: faults,
	// seeding and request counts are at hand.
	InProcess TargetKind = iota
	// Standalone is an API that is already running on loopback, such as
	// the standalone emulator (make emulator).
	Standalone
	// RealAPI is a real account: a Hetzner Cloud project, a Robot account,
	// a Proxmox VE cluster.
	RealAPI
)

func (k TargetKind) String() string {
	switch k {
	case Standalone:
		return "an API already running on loopback"
	case RealAPI:
		return "a real account"
	}
	return "the in-process emulator"
}

// Selection is where a test process runs its acceptance tests, for each
// backend: all on in-process emulators, unless TF_ACC=1 and the environment
// names at least one account; then each backend whose variables are all set
// runs on the account they name, and every other backend's tests skip,
// naming the variables it lacks.
type Selection struct {
	kind     TargetKind
	backends map[string]backendSelection
}

type backendSelection struct {
	kind TargetKind
	// skip is why the backend's tests skip on this run, "" when they run.
	skip string
	// env holds the backend's variables as the process started with them:
	// Main then unsets the settings' variables (clearSettingEnv), which
	// PROXMOX_VE_ENDPOINT is one of.
	env map[string]string
}

// Kind is the run's: InProcess, or the least controlled target of the
// backends that run (RealAPI when one of them is a real account). Tests
// that need an in-process emulator skip unless it is InProcess.
func (s Selection) Kind() TargetKind { return s.kind }

// For is backend b's target on this run and, when its tests skip, why.
func (s Selection) For(b *Backend) (TargetKind, string) {
	bs := s.backends[b.Kind]
	return bs.kind, bs.skip
}

// selection is this test process's; Main sets it from the environment
// before anything else reads it.
var selection = Selection{kind: InProcess}

// SelectTargets picks every backend's target from an environment: a remote
// one only with TF_ACC=1, so a token or endpoint that happens to be exported
// never turns `make test` into a run against an account.
func SelectTargets(getenv func(string) string) Selection {
	s := Selection{kind: InProcess, backends: map[string]backendSelection{}}
	remote := getenv("TF_ACC") != "" && slices.ContainsFunc(Backends, func(b *Backend) bool {
		return slices.ContainsFunc(b.variables(), func(v string) bool { return getenv(v) != "" })
	})
	if !remote {
		return s
	}
	s.kind = Standalone
	for _, b := range Backends {
		if missing := b.missing(getenv); len(missing) > 0 {
			s.backends[b.Kind] = backendSelection{kind: RealAPI, skip: fmt.Sprintf(
				"TF_ACC=1 runs the acceptance tests on the accounts the environment names, and %s lacks %s (see the README's testing section)",
				b.Title, strings.Join(missing, ", "))}
			continue
		}
		env := map[string]string{}
		for _, v := range b.variables() {
			env[v] = getenv(v)
		}
		kind := b.kindAt(env[b.endpointEnv])
		if kind == RealAPI {
			s.kind = RealAPI
		}
		s.backends[b.Kind] = backendSelection{kind: kind, env: env}
	}
	return s
}

// loopback reports whether an endpoint's host is on this machine, as the
// standalone emulator's are; a real account's never is.
func loopback(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// selectFromEnv records the process's targets; Main calls it first.
func selectFromEnv() {
	selection = SelectTargets(os.Getenv)
	if selection.kind == InProcess {
		return
	}
	for _, b := range Backends {
		if k, _ := selection.For(b); k != Standalone {
			continue
		}
		for v, def := range b.standaloneEnv {
			if os.Getenv(v) == "" {
				os.Setenv(v, def)
			}
		}
	}
	var lines []string
	for _, b := range Backends {
		k, skip := selection.For(b)
		if skip != "" {
			lines = append(lines, b.Title+": skipped; "+skip)
			continue
		}
		lines = append(lines, b.Title+": "+k.String())
	}
	fmt.Fprintf(os.Stderr, "acctest: TF_ACC=1 with accounts in the environment; tests that need an in-process emulator skip\n  %s\n",
		strings.Join(lines, "\n  "))
}
