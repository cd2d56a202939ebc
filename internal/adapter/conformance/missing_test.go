package conformance

import (
	"context"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// lumen is the smallest adapter double: a backend whose ids read "lm-123",
// whose Get refuses any other id as malformed, and knows no machine.
type lumen struct{ gets int }

func (*lumen) Kind() string { return "lumen" }
func (*lumen) ListOffers(context.Context, adapter.Query) ([]adapter.Offer, error) {
	return nil, nil
}
func (*lumen) Create(context.Context, adapter.Call, adapter.CreateRequest) (adapter.Machine, error) {
	return adapter.Machine{}, adapter.Errorf(adapter.Unsupported, "no create")
}
func (l *lumen) Get(_ context.Context, id string) (adapter.Machine, error) {
	l.gets++
	if !strings.HasPrefix(id, "lm-") {
		return adapter.Machine{}, adapter.Errorf(adapter.InvalidInput, "machine id %q is not an id of the form lm-NUMBER", id)
	}
	return adapter.Machine{}, adapter.Errorf(adapter.NotFound, "no machine %s", id)
}
func (*lumen) Delete(context.Context, string) error { return nil }

func lumenSuite(missing string, rule adapter.Rule) (*suite, *lumen) {
	l := &lumen{}
	return &suite{Target: Target{MissingID: missing, Definition: adapter.Definition{Kind: "lumen", Rules: adapter.Rules{MachineID: rule}}}, adapter: l}, l
}

// TestDefaultMissingIDRefused: an adapter that refuses the suite's default
// missing id as malformed, by its Get or by its definition's rule (then
// with no request), fails the first case that needs the id once, with what
// to set and the refusal; later cases skip pointing at it rather than
// blaming the adapter for a refusal the contract asks of it.
func TestDefaultMissingIDRefused(t *testing.T) {
	lumenIDs := adapter.Rule{Check: func(v string) bool { return strings.HasPrefix(v, "lm-") }, Text: "lm-NUMBER"}
	for _, c := range []struct {
		name     string
		rule     adapter.Rule
		refusal  string
		wantGets int
	}{
		{"by Get", adapter.Rule{}, "lm-NUMBER", 1},
		{"by the rule", lumenIDs, "machine id rule wants lm-NUMBER", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, l := lumenSuite(defaultMissingID, c.rule)
			v := &missingVerdict{}
			check := func() error { return s.refusesMissing(context.Background()) }
			fail, skip := v.decide("TestConformance/gone_is_NotFound", check)
			for _, want := range []string{"set Target.MissingID", `"999999999"`, c.refusal} {
				if !strings.Contains(fail, want) {
					t.Errorf("the first case fails with %q, which does not say %s", fail, want)
				}
			}
			if skip != "" || l.gets != c.wantGets {
				t.Errorf("the first case: skip %q and %d requests, want a failure alone after %d", skip, l.gets, c.wantGets)
			}
			fail, skip = v.decide("TestConformance/endpoint_not_the_API", check)
			if fail != "" || !strings.Contains(skip, "gone_is_NotFound") || l.gets != c.wantGets {
				t.Errorf("a later case: fail %q, skip %q after %d requests; want a skip naming the first case, and no new request", fail, skip, l.gets)
			}
		})
	}
}

// TestMissingIDTaken: an id the adapter takes (the target's own, of its
// backend's shape) neither fails nor skips, and is asked about once.
func TestMissingIDTaken(t *testing.T) {
	s, l := lumenSuite("lm-999999", adapter.Rule{})
	v := &missingVerdict{}
	for range 2 {
		if fail, skip := v.decide("case", func() error { return s.refusesMissing(context.Background()) }); fail != "" || skip != "" {
			t.Errorf("an id the adapter takes: fail %q, skip %q", fail, skip)
		}
	}
	if l.gets != 1 {
		t.Errorf("the adapter was asked %d times, want once", l.gets)
	}
}
