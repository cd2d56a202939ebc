package acctest

import (
	"context"
	"crypto/rand"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
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

// Target is one test's API on one backend, whichever the environment
// picked: the account configuration that reaches it, names for what the
// test creates, and checks that ask the API itself, through the adapter
// contract.
type Target struct {
	Backend *Backend
	Kind    TargetKind
	// Settings are the account block's settings, as Account writes them
	// ("" leaves one out).
	Settings map[string]string
	// Location, Offer and Image are what lifecycle tests create; MachineID
	// the machine they may claim (Robot's server), "" when they create one.
	Location, Offer, Image, MachineID string

	prefix string
	emu    *Emulator
	metal  *Metal
	pve    *Proxmox
}

// NewTarget returns the test's Hetzner Cloud target: a fresh in-process
// emulator unless the environment chose another.
func NewTarget(t testing.TB) *Target {
	t.Helper()
	return NewTargetOn(t, HetznerCloud)
}

// NewTargetOn returns the test's target on backend b: a fresh in-process
// emulator unless the environment chose another. It skips the test, naming
// the variables b lacks, when the environment names accounts but not all
// of b's.
func NewTargetOn(t testing.TB, b *Backend) *Target {
	t.Helper()
	kind, skip := selection.For(b)
	if skip != "" {
		t.Skip(skip)
	}
	tg := &Target{Backend: b, Kind: kind, prefix: NamePrefix + randomPart() + "-"}
	if kind == InProcess {
		b.local(t, tg)
	} else {
		b.remote(tg, selection.backends[b.Kind].env)
	}
	return tg
}

func (tg *Target) String() string {
	if tg.Kind == InProcess {
		return tg.Backend.Title + " on " + tg.Kind.String()
	}
	// An endpoint may carry credentials in its user part; the string goes
	// into test and sweep logs.
	where := "its default endpoint"
	if ep := tg.Settings["endpoint"]; ep != "" {
		where = adapter.Redacted(ep)
	}
	return tg.Backend.Title + " at " + where + " (" + tg.Kind.String() + ")"
}

// envOr is the process's environment variable name, or fallback when it
// is empty.
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

// Emulator is the in-process Hetzner Cloud emulator, nil for any other
// target: checks only an emulator can make (user data, request counts) run
// when it is set. Metal and Proxmox are Robot's and Proxmox VE's.
func (tg *Target) Emulator() *Emulator { return tg.emu }

// Metal is the in-process Robot world, nil for any other target.
func (tg *Target) Metal() *Metal { return tg.metal }

// Proxmox is the in-process Proxmox VE cluster, nil for any other target.
func (tg *Target) Proxmox() *Proxmox { return tg.pve }

// Name is base with the test's prefix (NamePrefix and a random part).
func (tg *Target) Name(base string) string { return tg.prefix + base }

// Labels is the labels argument of a Hetzner Cloud machine the test
// creates: the sweep label and the given user labels, which may not replace
// it. Every compute_instance of a test that runs on any Hetzner Cloud
// target sets it, so that make sweep can remove the machine should the test
// be interrupted; the target's checks fail for a machine without it.
// Backends without labels have another test mark (Backend.TestMark).
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

// Account is a compute_provider_account named "test" on the target, its
// block the backend's with the target's settings.
func (tg *Target) Account() string {
	def, err := provider.DefaultRegistry().Definition(tg.Backend.Kind)
	if err != nil {
		panic("acctest: " + err.Error())
	}
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(tg.Settings)) {
		if v := tg.Settings[k]; v != "" {
			lines = append(lines, fmt.Sprintf("%s = %q", k, v))
		}
	}
	return fmt.Sprintf(`
resource "compute_provider_account" "test" {
  name = "test"
  %s = {
    %s
  }
}
`, def.BlockName(), strings.Join(lines, "\n    "))
}

// settings are the target's settings without those left out.
func (tg *Target) settings() map[string]string {
	out := map[string]string{}
	for k, v := range tg.Settings {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

// Locator is the account's locator, as the account's id spells it.
func (tg *Target) Locator() adapter.Locator {
	l, err := provider.DefaultRegistry().Locate(tg.Backend.Kind, tg.settings())
	if err != nil {
		panic("acctest: the target's own account does not locate: " + err.Error())
	}
	return l
}

// AccountID is the id of the account Account configures on a Hetzner Cloud
// target, spelled out member by member, so a test that compares it with the
// resource's id checks the format too.
func (tg *Target) AccountID() string {
	l := tg.Locator()
	return `{"endpoint":"` + l.Settings["endpoint"] + `","kind":"hcloud","location":"` + tg.Location + `","name":"test","token":"` + tg.Settings["token"] + `"}`
}

// open is the account's adapter, uncached: each check sees the API as it
// is now, not a listing from a moment ago.
func (tg *Target) open() (adapter.Adapter, error) {
	return provider.DefaultRegistry().Open(tg.Locator(), adapter.Env{Secrets: adapter.SecretResolver{}, UserAgent: "terraform-provider-compute-acctest"})
}

// Sweepable reports whether m is what a test left behind on this target's
// account: prefixed, managed and with the backend's test mark (the label
// on Hetzner Cloud, the named server on Robot, the tests' VMID range on
// Proxmox VE).
func (tg *Target) Sweepable(m adapter.Machine) bool {
	return m.Managed && strings.HasPrefix(m.Name, NamePrefix) && tg.Backend.marked(tg, m)
}

// Machines lists the managed machines on the target's account whose names
// carry this test's prefix. A machine without the backend's test mark is an
// error: the test's configuration forgot Labels (or wrote its own account),
// and an interrupted run would leave that machine where make sweep does not
// look.
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
		return nil, fmt.Errorf("list machines on %s: %w", tg, err)
	}
	var out []adapter.Machine
	for _, m := range all {
		if !strings.HasPrefix(m.Name, tg.prefix) {
			continue
		}
		if !tg.Sweepable(m) {
			return nil, fmt.Errorf("machine %s (%s) on %s lacks %s, which make sweep looks for; "+
				"write the test's configuration with the Target's Account (and Labels on Hetzner Cloud)", m.Name, m.ID, tg, tg.Backend.TestMark)
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
	return adapter.Machine{}, fmt.Errorf("no managed machine named %s on %s", name, tg)
}

// CheckMachines asserts how many of this test's machines exist.
func (tg *Target) CheckMachines(want int) func(*terraform.State) error {
	return func(*terraform.State) error {
		ms, err := tg.Machines()
		if err != nil {
			return err
		}
		if live := liveMachines(ms); len(live) != want {
			return fmt.Errorf("%s holds %d live machines of this test, want %d: %+v", tg, len(live), want, live)
		}
		return nil
	}
}

// CheckDestroy asks the API whether every machine of this test is gone
// (on Robot: released, and still rented), and the in-process emulator
// whether anything at all is left.
func (tg *Target) CheckDestroy(s *terraform.State) error {
	switch {
	case tg.emu != nil:
		if err := tg.emu.CheckDestroy(s); err != nil {
			return err
		}
	case tg.metal != nil:
		n, _ := strconv.Atoi(tg.MachineID)
		if err := tg.metal.CheckReleased(n, "")(s); err != nil {
			return err
		}
	case tg.pve != nil:
		if err := tg.pve.CheckDestroy(s); err != nil {
			return err
		}
	}
	ms, err := tg.Machines()
	if err != nil {
		return err
	}
	if len(ms) > 0 {
		return fmt.Errorf("machines of this test remain on %s after destroy: %+v", tg, ms)
	}
	return tg.Backend.destroyed(tg)
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

// robotReleased asks the webservice for the test's server after a destroy:
// still there, and carrying no claim.
func robotReleased(tg *Target) error {
	a, err := tg.open()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m, err := a.Get(ctx, tg.MachineID)
	if err != nil {
		return fmt.Errorf("server %s after a destroy that only releases it: %w", tg.MachineID, err)
	}
	if m.Managed {
		return fmt.Errorf("server %s is still claimed (named %q) after destroy", tg.MachineID, m.Name)
	}
	return nil
}
