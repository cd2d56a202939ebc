package acctest

import (
	"context"
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
// providers use for regions, is not used: a Hetzner Cloud project is swept
// whole, whatever the location of its machines.
func sweepMain(m *testing.M) {
	resource.AddTestSweepers("compute_instance", &resource.Sweeper{
		Name: "compute_instance",
		F:    func(string) error { return sweepFromEnv() },
	})
	resource.TestMain(m)
	os.Exit(0)
}

// sweepFromEnv sweeps the project that the environment names.
func sweepFromEnv() error {
	if selection.kind == InProcess {
		return fmt.Errorf("nothing to sweep: in-process emulators end with their tests; set TF_ACC=1 and %s (a real project) or %s (a running emulator)", RealTokenEnv, EndpointEnv)
	}
	tg := &Target{Kind: selection.kind, Endpoint: selection.endpoint, TokenEnv: RealTokenEnv, Location: envOr(LocationEnv, "fsn1")}
	a, err := tg.open()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), sweepTimeout)
	defer cancel()
	swept, err := Sweep(ctx, a)
	for _, name := range swept {
		log.Printf("[INFO] swept %s from %s", name, tg.Kind)
	}
	return err
}

// Sweep deletes what tests left behind on an account: machines whose name
// begins with NamePrefix, that carry the provider's managed mark and the
// label SweepLabel = SweepValue, which every machine of a test that runs on
// any target gets from Target.Labels (see Sweepable). It never touches
// anything else: not a prefixed machine of a user's configuration
// (tfacc-my-production-db is managed, not labelled), not one whose mark was
// set by hand, not one made by hand or imported and never applied. The
// listing holds managed machines only, the rule is checked once more here,
// and the adapter refuses to delete an unmarked machine besides. It returns
// the names it deleted; a machine gone meanwhile counts as swept, one
// already being deleted is left to finish.
func Sweep(ctx context.Context, a adapter.Adapter) ([]string, error) {
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
		if !Sweepable(m) {
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
