package acctest

import (
	"context"
	"crypto/rand"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// The environment that picks where acceptance tests run (see SelectTarget).
const (
	// EndpointEnv, with TF_ACC=1, points the tests at an API that is
	// already running, such as the standalone emulator (make emulator).
	EndpointEnv = "COMPUTE_TEST_ENDPOINT"
	// RealTokenEnv, with TF_ACC=1 and no EndpointEnv, holds a token of a
	// real Hetzner Cloud project, which the tests then create machines in.
	// With EndpointEnv it is that API's token, "demo-token" (the standalone
	// emulator's default) when unset.
	RealTokenEnv = "HCLOUD_TOKEN"
	// OfferEnv, ImageEnv and LocationEnv replace what lifecycle tests
	// create, for a project where the defaults are not sold.
	OfferEnv    = "COMPUTE_TEST_OFFER"
	ImageEnv    = "COMPUTE_TEST_IMAGE"
	LocationEnv = "COMPUTE_TEST_LOCATION"
)

// standaloneToken is the standalone emulator's default token.
const standaloneToken = "demo-token"

// NamePrefix begins the name of every machine a Target's tests create.
const NamePrefix = "tfacc-"

// SweepLabel and SweepValue are the user label every machine a Target's
// tests create carries (Target.Labels writes it into the configuration).
// The sweeper deletes a machine only with the prefix, the provider's managed
// mark and this label: a name alone is what a user may well choose
// (tfacc-my-production-db), and a managed mark is on every machine of every
// configuration, so neither tells a test's leftover from a user's machine.
const (
	SweepLabel = "tfacc"
	SweepValue = "sweepable"
)

// Sweepable reports whether m is what a test left behind: prefixed, managed
// and labelled by the test.
func Sweepable(m adapter.Machine) bool {
	return m.Managed && strings.HasPrefix(m.Name, NamePrefix) && m.Labels[SweepLabel] == SweepValue
}

// TargetKind says what a test's API is.
type TargetKind int

// The targets, from the most to the least under the test's control.
const (
	// InProcess is a fresh emulator per test in the test process: faults,
	// seeding and request counts are at hand.
	InProcess TargetKind = iota
	// Standalone is an API that is already running, at EndpointEnv.
	Standalone
	// RealAPI is the real Hetzner Cloud API, with RealTokenEnv.
	RealAPI
)

func (k TargetKind) String() string {
	switch k {
	case Standalone:
		return "the API at " + EndpointEnv
	case RealAPI:
		return "the real Hetzner Cloud API with " + RealTokenEnv
	}
	return "the in-process emulator"
}

// selection is where this test process runs its acceptance tests; Main
// sets it from the environment before anything else reads it.
var selection = targetSelection{kind: InProcess}

type targetSelection struct {
	kind     TargetKind
	endpoint string
}

// SelectTarget picks the target from an environment: a remote one only
// with TF_ACC=1, so a token or endpoint that happens to be exported never
// turns `make test` into a run against an account.
func SelectTarget(getenv func(string) string) (TargetKind, string) {
	if getenv("TF_ACC") == "" {
		return InProcess, ""
	}
	if ep := getenv(EndpointEnv); ep != "" {
		return Standalone, ep
	}
	if getenv(RealTokenEnv) != "" {
		return RealAPI, ""
	}
	return InProcess, ""
}

// selectFromEnv records the process's target; Main calls it first.
func selectFromEnv() {
	kind, endpoint := SelectTarget(os.Getenv)
	selection = targetSelection{kind: kind, endpoint: endpoint}
	if kind == Standalone && os.Getenv(RealTokenEnv) == "" {
		os.Setenv(RealTokenEnv, standaloneToken)
	}
	if kind != InProcess {
		fmt.Fprintf(os.Stderr, "acctest: the target is %s; tests that need the in-process emulator skip\n", kind)
	}
}

// Target is one test's API, whichever the environment picked: the account
// configuration that reaches it, names for what the test creates, and
// checks that ask the API itself, through the adapter contract.
type Target struct {
	Kind TargetKind
	// Endpoint is the account's endpoint setting, "" for the adapter's
	// default (the real API).
	Endpoint string
	// TokenEnv names the variable the account's token reference reads.
	TokenEnv string
	// Location, Offer and Image are what lifecycle tests create.
	Location, Offer, Image string

	prefix string
	emu    *Emulator
}

// NewTarget returns the test's target: a fresh in-process emulator unless
// the environment chose another.
func NewTarget(t testing.TB) *Target {
	t.Helper()
	tg := &Target{
		Kind:     selection.kind,
		Location: envOr(LocationEnv, "fsn1"),
		Offer:    envOr(OfferEnv, "cx22"),
		Image:    envOr(ImageEnv, "ubuntu-24.04"),
		prefix:   NamePrefix + randomPart() + "-",
	}
	switch tg.Kind {
	case InProcess:
		tg.emu = NewEmulator(t)
		tg.Endpoint, tg.TokenEnv = tg.emu.Endpoint, TokenEnv
	case Standalone:
		tg.Endpoint, tg.TokenEnv = selection.endpoint, RealTokenEnv
	case RealAPI:
		tg.TokenEnv = RealTokenEnv
	}
	return tg
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// randomPart keeps names of concurrent runs against one project apart.
func randomPart() string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return string(b)
}

// Emulator is the in-process emulator, nil for any other target: checks
// only an emulator can make (user data, request counts) run when it is set.
func (tg *Target) Emulator() *Emulator { return tg.emu }

// Name is base with the test's prefix (NamePrefix and a random part).
func (tg *Target) Name(base string) string { return tg.prefix + base }

// Labels is the labels argument of a machine the test creates: the sweep
// label and the given user labels, which may not replace it. Every
// compute_instance of a test that runs on any target sets it, so that make
// sweep can remove the machine should the test be interrupted; the
// target's checks fail for a machine without it.
func (tg *Target) Labels(user map[string]string) string {
	all := map[string]string{SweepLabel: SweepValue}
	for k, v := range user {
		if k == SweepLabel {
			panic("acctest: the test's labels replace the sweep label " + SweepLabel)
		}
		all[k] = v
	}
	pairs := make([]string, 0, len(all))
	for _, k := range slices.Sorted(maps.Keys(all)) {
		pairs = append(pairs, fmt.Sprintf("%q = %q", k, all[k]))
	}
	return "labels = { " + strings.Join(pairs, ", ") + " }"
}

// Account is a compute_provider_account named "test" on the target.
func (tg *Target) Account() string {
	endpoint := ""
	if tg.Endpoint != "" {
		endpoint = fmt.Sprintf("\n    endpoint = %q", tg.Endpoint)
	}
	return fmt.Sprintf(`
resource "compute_provider_account" "test" {
  name = "test"
  hetzner_cloud = {
    token    = %q
    location = %q%s
  }
}
`, "env://"+tg.TokenEnv, tg.Location, endpoint)
}

// Locator is the account's locator, as the account's id spells it.
func (tg *Target) Locator() adapter.Locator {
	settings := map[string]string{"token": "env://" + tg.TokenEnv, "location": tg.Location, "endpoint": tg.Endpoint}
	l, err := provider.DefaultRegistry().Locate("hcloud", settings)
	if err != nil {
		panic("acctest: the target's own account does not locate: " + err.Error())
	}
	return l
}

// AccountID is the id of the account Account configures, spelled out
// member by member, so a test that compares it with the resource's id
// checks the format too.
func (tg *Target) AccountID() string {
	l := tg.Locator()
	return `{"endpoint":"` + l.Settings["endpoint"] + `","kind":"hcloud","location":"` + tg.Location + `","name":"test","token":"env://` + tg.TokenEnv + `"}`
}

// open is the account's adapter, uncached: each check sees the API as it
// is now, not a listing from a moment ago.
func (tg *Target) open() (adapter.Adapter, error) {
	return provider.DefaultRegistry().Open(tg.Locator(), adapter.Env{Secrets: adapter.SecretResolver{}, UserAgent: "terraform-provider-compute-acctest"})
}

// Machines lists the managed machines on the target's account whose names
// carry this test's prefix. A machine without the sweep label is an error:
// the test's configuration forgot Labels, and an interrupted run would leave
// that machine where make sweep does not look.
func (tg *Target) Machines() ([]adapter.Machine, error) {
	a, err := tg.open()
	if err != nil {
		return nil, err
	}
	l, ok := a.(adapter.Lister)
	if !ok {
		return nil, fmt.Errorf("the %s adapter cannot list machines", a.Kind())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	all, err := l.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("list machines on %s: %w", tg.Kind, err)
	}
	var out []adapter.Machine
	for _, m := range all {
		if !strings.HasPrefix(m.Name, tg.prefix) {
			continue
		}
		if !Sweepable(m) {
			return nil, fmt.Errorf("machine %s on %s lacks the label %s = %q that make sweep looks for; "+
				"set labels with Target.Labels in the test's configuration", m.Name, tg.Kind, SweepLabel, SweepValue)
		}
		out = append(out, m)
	}
	return out, nil
}

// Machine returns the managed machine named name (Name already applied).
func (tg *Target) Machine(name string) (adapter.Machine, error) {
	ms, err := tg.Machines()
	if err != nil {
		return adapter.Machine{}, err
	}
	for _, m := range ms {
		if m.Name == name {
			return m, nil
		}
	}
	return adapter.Machine{}, fmt.Errorf("no managed machine named %s on %s", name, tg.Kind)
}

// CheckMachines asserts how many of this test's machines exist.
func (tg *Target) CheckMachines(want int) func(*terraform.State) error {
	return func(*terraform.State) error {
		ms, err := tg.Machines()
		if err != nil {
			return err
		}
		if live := liveMachines(ms); len(live) != want {
			return fmt.Errorf("%s holds %d live machines of this test, want %d: %+v", tg.Kind, len(live), want, live)
		}
		return nil
	}
}

// CheckDestroy asks the API whether every machine of this test is gone,
// and the in-process emulator whether any server at all is left.
func (tg *Target) CheckDestroy(s *terraform.State) error {
	if tg.emu != nil {
		if err := tg.emu.CheckDestroy(s); err != nil {
			return err
		}
	}
	ms, err := tg.Machines()
	if err != nil {
		return err
	}
	if len(ms) > 0 {
		return fmt.Errorf("machines of this test remain on %s after destroy: %+v", tg.Kind, ms)
	}
	return nil
}

func liveMachines(ms []adapter.Machine) []adapter.Machine {
	var out []adapter.Machine
	for _, m := range ms {
		if m.State != adapter.StateDeleting && m.State != adapter.StateDeleted {
			out = append(out, m)
		}
	}
	return out
}
