package instance

import (
	"context"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// madeOnce makes its machine on the first create and fails that create
// after it; every later create fails before it finds the machine again.
type madeOnce struct{ creates int }

func (a *madeOnce) Kind() string { return "made-once" }
func (a *madeOnce) ListOffers(context.Context, adapter.Query) ([]adapter.Offer, error) {
	return nil, nil
}
func (a *madeOnce) Get(context.Context, string) (adapter.Machine, error) {
	return adapter.Machine{}, adapter.Errorf(adapter.Transient, "not asked")
}
func (a *madeOnce) Delete(context.Context, string) error { return nil }
func (a *madeOnce) Create(context.Context, adapter.Call, adapter.CreateRequest) (adapter.Machine, error) {
	a.creates++
	if a.creates == 1 {
		return adapter.Machine{ID: "7"}, adapter.Errorf(adapter.Transient, "start VM 7: the node failed")
	}
	return adapter.Machine{}, adapter.Errorf(adapter.AccessDenied, "listing refused")
}

// instant never waits: a retry's backoff passes at once.
type instant struct{}

func (instant) Now() time.Time { return time.Now() }
func (instant) After(time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	c <- time.Now()
	return c
}

// TestCreateKeepsMachineOfEarlierAttempt: the machine an attempt made is
// what the create reports, even when the retry after it fails without
// naming a machine, so the caller saves it instead of losing it.
func TestCreateKeepsMachineOfEarlierAttempt(t *testing.T) {
	a := &madeOnce{}
	r := &Resource{accounts: &adapter.Accounts{Env: adapter.Env{Clock: instant{}}}}
	m, err := r.createMachine(context.Background(), adapter.NewCached(a, instant{}, 0), adapter.Call{}, adapter.CreateRequest{Name: "web"})
	if a.creates != 2 || adapter.CodeOf(err) != adapter.AccessDenied {
		t.Fatalf("%d creates ending in %v, want 2 ending in the refusal", a.creates, err)
	}
	if m.ID != "7" {
		t.Errorf("create reported machine %q, want 7, made by the first attempt", m.ID)
	}
}
