package acctest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// Emulator is one test's Hetzner Cloud API.
type Emulator struct {
	*emu.Emulator
	// Endpoint is the API's base URL, as the account's endpoint takes it.
	Endpoint string

	stop func()
}

// NewEmulator starts a fresh emulator on 127.0.0.1 that accepts Token, and
// ReadOnlyToken for reads only, and stops with the test.
//
// A test that calls it needs the emulator's own powers (seeding, faults,
// request counts, changes behind the API's back), so it skips when the
// environment chose another target; tests that run anywhere use NewTarget.
func NewEmulator(t testing.TB) *Emulator {
	t.Helper()
	if selection.kind != InProcess {
		t.Skipf("needs the in-process emulator (seeding, faults or request counts); this run's target is %s", selection.kind)
	}
	e, endpoint, stop, err := emu.NewServer(context.Background(), emu.Options{Token: Token, ReadOnlyToken: ReadOnlyToken, ActionPolls: 2})
	if err != nil {
		t.Fatalf("start emulator: %v", err)
	}
	t.Cleanup(stop)
	return &Emulator{Emulator: e, Endpoint: endpoint, stop: stop}
}

// Stop closes the emulator's port before the test ends, as an API that
// went down: every later connection to the endpoint is refused.
func (e *Emulator) Stop() { e.stop() }

// Account is a compute_provider_account named "test" on this emulator.
func (e *Emulator) Account() string {
	return e.AccountNamed("test", "env://"+HetznerCloudTokenEnv)
}

// AccountID is the id compute_provider_account computes for a Hetzner
// Cloud account on this emulator with no name and the token reference
// env://HetznerCloudTokenEnv: what protocol-level tests name the account by.
func (e *Emulator) AccountID(t testing.TB) string {
	t.Helper()
	loc, err := provider.DefaultRegistry().Locate("hcloud", map[string]string{"token": "env://" + HetznerCloudTokenEnv, "endpoint": e.Endpoint})
	if err != nil {
		t.Fatal(err)
	}
	return loc.String()
}

// AccountNamed is a compute_provider_account with the given resource name
// and token reference on this emulator.
func (e *Emulator) AccountNamed(name, tokenRef string) string {
	return fmt.Sprintf(`
resource "compute_provider_account" %q {
  name = %q
  hetzner_cloud = {
    token    = %q
    endpoint = %q
  }
}
`, name, name, tokenRef, e.Endpoint)
}

// Live returns the servers that are not being deleted.
func (e *Emulator) Live() []emu.Server {
	var out []emu.Server
	for _, s := range e.Servers() {
		if s.Status != "deleting" {
			out = append(out, s)
		}
	}
	return out
}

// CheckDestroy asks the emulator whether every server is gone.
func (e *Emulator) CheckDestroy(*terraform.State) error {
	if s := e.Servers(); len(s) > 0 {
		var names []string
		for _, x := range s {
			names = append(names, fmt.Sprintf("%d (%s, %s)", x.ID, x.Name, x.Status))
		}
		return fmt.Errorf("servers remain after destroy: %s", strings.Join(names, ", "))
	}
	return nil
}

// ServerNamed returns the server with the given name.
func (e *Emulator) ServerNamed(name string) (emu.Server, bool) {
	for _, s := range e.Servers() {
		if s.Name == name {
			return s, true
		}
	}
	return emu.Server{}, false
}

// FaultsUsedUp checks that every scripted failure was met, so a test that
// rides out failures proves it met them.
func (e *Emulator) FaultsUsedUp(*terraform.State) error {
	if left := e.Faults().Rules(); len(left) != 0 {
		return fmt.Errorf("faults left unused, so the call did not pass through them: %+v", left)
	}
	return nil
}
