package acctest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

const managedLabel = "compute.seedcompute.io/managed"

// The sweeper deletes a machine only when it has the test prefix, the
// managed mark and the test label; a prefixed machine someone made by hand,
// a prefixed managed machine of a user's configuration, one whose mark was
// set by hand, and a managed machine of anyone's configuration with the
// test label, all stay.
func TestSweepDeletesOnlyWhatTestsMade(t *testing.T) {
	t.Setenv(HetznerCloudTokenEnv, Token)
	tg := NewTarget(t)
	e := tg.Emulator()
	managed := map[string]string{managedLabel: "true"}
	leftover := map[string]string{managedLabel: "true", SweepLabel: SweepValue}
	e.AddServer(emu.Server{Name: "tfacc-left-1", Labels: leftover})
	e.AddServer(emu.Server{Name: "tfacc-by-hand", Labels: map[string]string{"team": "edge", SweepLabel: SweepValue}})
	e.AddServer(emu.Server{Name: "tfacc-my-production-db", Labels: managed})
	e.AddServer(emu.Server{Name: "tfacc-marked-by-hand", Labels: map[string]string{managedLabel: "true", SweepLabel: "keep"}})
	e.AddServer(emu.Server{Name: "web-1", Labels: leftover})
	e.AddServer(emu.Server{Name: "web-tfacc-2", Labels: leftover})

	a, err := tg.open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	swept, err := Sweep(ctx, a, tg.Sweepable)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(swept, []string{"tfacc-left-1"}) {
		t.Errorf("swept %v, want only tfacc-left-1", swept)
	}
	var left []string
	for _, s := range e.Live() {
		left = append(left, s.Name)
	}
	slices.Sort(left)
	if want := []string{"tfacc-by-hand", "tfacc-marked-by-hand", "tfacc-my-production-db", "web-1", "web-tfacc-2"}; !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
	if n := e.Stats()["DELETE /servers/{id}"]; n != 1 {
		t.Errorf("%d deletes sent, want 1", n)
	}

	// A second sweep finds nothing left to do.
	if swept, err := Sweep(ctx, a, tg.Sweepable); err != nil || len(swept) != 0 {
		t.Errorf("second sweep: %v %v", swept, err)
	}
}

// A sweep that cannot list the project fails instead of sweeping less.
func TestSweepFailsOnAFailedListing(t *testing.T) {
	t.Setenv(HetznerCloudTokenEnv, Token)
	tg := NewTarget(t)
	tg.Emulator().AddServer(emu.Server{Name: "tfacc-left-1", Labels: map[string]string{managedLabel: "true", SweepLabel: SweepValue}})
	tg.Emulator().FailNext("GET", "/servers", 10, 401, "unauthorized")
	a, err := tg.open()
	if err != nil {
		t.Fatal(err)
	}
	if swept, err := Sweep(context.Background(), a, tg.Sweepable); err == nil || len(swept) != 0 {
		t.Errorf("sweep over a failing listing: %v %v, want an error", swept, err)
	}
}

// fakeAccount lists what it is given and records deletes, so Sweep's own
// rule is tested apart from the adapter's listing, which already holds
// managed machines only.
type fakeAccount struct {
	adapter.Adapter
	machines []adapter.Machine
	deleted  []string
}

func (f *fakeAccount) Kind() string                                    { return "fake" }
func (f *fakeAccount) List(context.Context) ([]adapter.Machine, error) { return f.machines, nil }
func (f *fakeAccount) Delete(_ context.Context, id string) error {
	f.deleted = append(f.deleted, id)
	return nil
}

func TestSweepChecksTheMarkItself(t *testing.T) {
	test := map[string]string{SweepLabel: SweepValue}
	f := &fakeAccount{machines: []adapter.Machine{
		{ID: "1", Name: "tfacc-a", Managed: true, State: adapter.StateRunning, Labels: test},
		{ID: "2", Name: "tfacc-b", Managed: false, State: adapter.StateRunning, Labels: test},
		{ID: "3", Name: "tfacc-c", Managed: true, State: adapter.StateDeleting, Labels: test},
		{ID: "4", Name: "b-tfacc-d", Managed: true, State: adapter.StateRunning, Labels: test},
		{ID: "5", Name: "tfacc-my-production-db", Managed: true, State: adapter.StateRunning},
	}}
	tg := &Target{Backend: HetznerCloud}
	swept, err := Sweep(context.Background(), f, tg.Sweepable)
	if err != nil || !slices.Equal(swept, []string{"tfacc-a"}) || !slices.Equal(f.deleted, []string{"1"}) {
		t.Errorf("swept %v deleted %v err %v, want only tfacc-a (id 1)", swept, f.deleted, err)
	}
}

func TestLabelsKeepTheSweepLabel(t *testing.T) {
	tg := &Target{}
	if got, want := tg.Labels(map[string]string{"team": "edge"}), `labels = { "team" = "edge", "tfacc" = "sweepable" }`; got != want {
		t.Errorf("Labels = %s, want %s", got, want)
	}
	if got, want := tg.Labels(nil), `labels = { "tfacc" = "sweepable" }`; got != want {
		t.Errorf("Labels(nil) = %s, want %s", got, want)
	}
}

// A test machine without the sweep label fails the target's checks, so a
// test that forgot Labels cannot leave machines make sweep never finds.
func TestMachinesRefuseAnUnlabelledTestMachine(t *testing.T) {
	t.Setenv(HetznerCloudTokenEnv, Token)
	tg := NewTarget(t)
	tg.Emulator().AddServer(emu.Server{Name: tg.Name("web-1"), Labels: map[string]string{managedLabel: "true"}})
	if _, err := tg.Machines(); err == nil || !strings.Contains(err.Error(), "lacks the label tfacc") {
		t.Errorf("Machines: %v, want an error naming the missing label", err)
	}
}
