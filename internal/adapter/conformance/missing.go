package conformance

import (
	"context"
	"fmt"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The missing id. A case that asks about a machine that never existed names
// it with Target.MissingID, or with the default, a number, when the target
// sets none. A backend whose ids are not numbers ("lm-123") rightly refuses
// the default as malformed, and every such case would then blame the
// adapter for a refusal the contract asks of it. So the suite judges the
// default first, once per Run, and says what the target must set.

// defaultMissingID is the missing id of a target that sets none: a number,
// the shape of the shipped backends' ids.
const defaultMissingID = "999999999"

// missingVerdict is what the suite found of the default missing id, once
// per Run: the first case that needs it asks the adapter, and the others
// take its answer.
type missingVerdict struct {
	checked bool
	// refusal is how the adapter refused the default; nil when it took it.
	refusal error
	// first is the case that asked.
	first string
}

// decide judges the default missing id for case name, asking check only the
// first time: fail is the one failure that says what to set, for the case
// that found the refusal; skip is for every later case that needs the id.
func (v *missingVerdict) decide(name string, check func() error) (fail, skip string) {
	if !v.checked {
		v.checked, v.first = true, name
		v.refusal = check()
		if v.refusal != nil {
			return fmt.Sprintf("the suite names a machine that does not exist with its default missing id %q, and the adapter refuses that id as malformed (%v); "+
				"set Target.MissingID to an id of the backend's shape that names no machine", defaultMissingID, v.refusal), ""
		}
		return "", ""
	}
	if v.refusal != nil {
		return "", fmt.Sprintf("the default missing id %q is refused as malformed, as %s reports; set Target.MissingID", defaultMissingID, v.first)
	}
	return "", ""
}

// missing returns the id of a machine that does not exist, for a case that
// names one. With the default, a case fails or skips as decide says.
func (s *suite) missing(t *testing.T) string {
	t.Helper()
	if s.verdict == nil {
		return s.MissingID
	}
	fail, skip := s.verdict.decide(t.Name(), func() error { return s.refusesMissing(s.ctx(t)) })
	switch {
	case fail != "":
		t.Fatal(fail)
	case skip != "":
		t.Skip(skip)
	}
	return s.MissingID
}

// refusesMissing returns how the adapter refuses the missing id as
// malformed: by the definition's machine id rule, which asks nothing of the
// backend, or by Get's InvalidInput for an adapter that refuses it in its
// own code; nil when it takes the id.
func (s *suite) refusesMissing(ctx context.Context) error {
	if rule := s.Definition.Rules.MachineID; !rule.Allows(s.MissingID) {
		return fmt.Errorf("the definition's machine id rule wants %s", rule.Text)
	}
	if _, err := s.adapter.Get(ctx, s.MissingID); adapter.Is(err, adapter.InvalidInput) {
		return fmt.Errorf("Get refuses it: %w", err)
	}
	return nil
}
