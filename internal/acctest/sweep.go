package acctest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// sweepTimeout bounds one sweep of a project.
const sweepTimeout = 10 * time.Minute

// sweeping reports whether the test binary was started with -sweep, the
// flag terraform-plugin-testing's TestMain registers.
func sweeping() bool {
	if !flag.Parsed() {
		flag.Parse()
	}
	f := flag.Lookup("sweep")
	return f != nil && f.Value.String() != ""
}

// sweepMain runs the sweepers instead of the tests, as providers do:
// `go test ./internal/instance -sweep=project`. The flag's value, which
// providers use for regions, is not used: each account the environment
// names is swept whole, whatever the location of its machines.
func sweepMain(m *testing.M) {
	resource.AddTestSweepers("compute_instance", &resource.Sweeper{
		Name: "compute_instance",
		F:    func(string) error { return sweepFromEnv() },
	})
	resource.TestMain(m)
	os.Exit(0)
}

// sweepFromEnv sweeps every account the environment names, and fails when
// it names none or one of the sweeps fails; a backend whose variables are
// incomplete is said to be skipped.
func sweepFromEnv() error {
	if selection.kind == InProcess {
		return fmt.Errorf("nothing to sweep: in-process emulators end with their tests; set TF_ACC=1 and the variables of an account " +
			"(see the README's testing section)")
	}
	var failed []string
	swept := 0
	for _, b := range Backends {
		kind, skip := selection.For(b)
		if skip != "" {
			log.Printf("[INFO] not sweeping %s: %s", b.Title, skip)
			continue
		}
		tg := &Target{Backend: b, Kind: kind}
		b.remote(tg, selection.backends[b.Kind].env)
		if err := sweepTarget(tg); err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", b.Title, err))
		}
		swept++
	}
	if len(failed) > 0 {
		return errors.New(strings.Join(failed, "; "))
	}
	if swept == 0 {
		return errors.New("nothing swept: no backend's variables are complete")
	}
	return nil
}

// sweepTarget sweeps the account of one target.
func sweepTarget(tg *Target) error {
	a, err := tg.open()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), sweepTimeout)
	defer cancel()
	swept, err := Sweep(ctx, a, tg.Sweepable)
	for _, name := range swept {
		log.Printf("[INFO] swept %s from %s", name, tg)
	}
	return err
}

// Sweep deletes what tests left behind on an account: the machines
// sweepable says are a test's, which Target.Sweepable says of machines
// whose name begins with NamePrefix, that carry the provider's managed mark
// and the backend's test mark: the label SweepLabel = SweepValue on
// Hetzner Cloud (Target.Labels), the server RobotServerEnv names on Robot,
// a VMID in the tests' range on Proxmox VE. It never touches anything else:
// not a prefixed machine of a user's configuration (tfacc-my-production-db
// is managed, not test-marked), not one whose mark was set by hand, not one
// made by hand or imported and never applied. The listing holds managed
// machines only, the rule is checked once more here, and the adapter
// refuses to delete an unmarked machine besides. On Robot a delete releases
// the claim, since a Target's account never sets cancel_on_destroy: no
// rental is cancelled. It returns the names it deleted; a machine gone
// meanwhile counts as swept, one already being deleted is left to finish.
func Sweep(ctx context.Context, a adapter.Adapter, sweepable func(adapter.Machine) bool) ([]string, error) {
	l, ok := a.(adapter.Lister)
	if !ok {
		return nil, fmt.Errorf("the %s adapter cannot list its machines, so there is nothing to sweep with", a.Kind())
	}
	machines, err := l.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("list managed machines: %w", err)
	}
	var swept []string
	var failed []string
	for _, m := range machines {
		if !sweepable(m) {
			continue
		}
		if m.State == adapter.StateDeleting || m.State == adapter.StateDeleted {
			// An earlier sweep or a destroy is already at it.
			continue
		}
		if err := a.Delete(ctx, m.ID); err != nil && !adapter.Is(err, adapter.NotFound) {
			failed = append(failed, fmt.Sprintf("%s (%s): %v", m.Name, m.ID, err))
			continue
		}
		swept = append(swept, m.Name)
	}
	if len(failed) > 0 {
		return swept, fmt.Errorf("could not delete %d machines: %s", len(failed), strings.Join(failed, "; "))
	}
	return swept, nil
}
