package conformance

import (
	"context"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Gone and malformed ids. A machine that is gone is NotFound to every call
// that names it, so the Terraform layer treats a destroy of it as done and a
// refresh of it as a machine to create again. A malformed id, one the
// definition's Rules.MachineID refuses, is InvalidInput on the "id" field:
// permanent (retrying cannot make it valid), and not NotFound, because the
// backend was never asked and proved nothing; a refresh keeps the state and
// says what a machine id looks like. It is refused before any request is
// sent.

// idCalls are the calls that name a machine, those the adapter offers.
func (s *suite) idCalls(t *testing.T) map[string]func(ctx context.Context, id string) error {
	calls := map[string]func(ctx context.Context, id string) error{
		"Get":    func(ctx context.Context, id string) error { _, err := s.adapter.Get(ctx, id); return err },
		"Delete": s.adapter.Delete,
	}
	if p, ok := s.adapter.(adapter.Powerer); ok {
		calls["Power"] = func(ctx context.Context, id string) error { return p.Power(ctx, id, adapter.PowerOff) }
	}
	if u, ok := s.adapter.(adapter.Updater); ok {
		calls["Update"] = func(ctx context.Context, id string) error {
			_, err := u.Update(ctx, id, s.change(t, "gone"))
			return err
		}
	}
	return calls
}

// malformedIDCalls are idCalls and an Update given a managed machine as
// its Current, as the Terraform layer passes one: an adapter that trusts
// Current and reads nothing must still refuse the id first.
func (s *suite) malformedIDCalls(t *testing.T) map[string]func(ctx context.Context, id string) error {
	calls := s.idCalls(t)
	if u, ok := s.adapter.(adapter.Updater); ok {
		calls["Update of a managed Current"] = func(ctx context.Context, id string) error {
			req := s.change(t, "malformed")
			req.Current = &adapter.Machine{ID: id, Name: name(t, "malformed"), Managed: true, Labels: map[string]string{}}
			_, err := u.Update(ctx, id, req)
			return err
		}
	}
	return calls
}

// goneIsNotFound: a machine deleted and gone, and an id that never existed,
// are NotFound to every call; deleting twice is NotFound the second time.
func goneIsNotFound(t *testing.T, s *suite) {
	missing := s.missing(t)
	n := name(t, "gone")
	m := s.mustCreate(t, s.call(n), s.request(n))
	if err := s.retry(t, "delete", func(ctx context.Context) error { return s.adapter.Delete(ctx, m.ID) }); err != nil {
		t.Fatalf("Delete(%s): %v", m.ID, err)
	}
	s.waitFor(t, m.ID, "absence", func(_ adapter.Machine, err error) bool { return adapter.IsNotFound(err) })
	for what, call := range s.idCalls(t) {
		for _, id := range []string{m.ID, missing} {
			err := s.retry(t, what, func(ctx context.Context) error { return call(ctx, id) })
			wantCode(t, what+" of gone machine "+id, err, adapter.NotFound)
		}
	}
}

// malformedIDsAreInvalidInput: ids the definition's rule refuses are
// InvalidInput naming the id, from every call (an Update given a managed
// Current too), with no request sent.
func malformedIDsAreInvalidInput(t *testing.T, s *suite) {
	rule := s.Definition.Rules.MachineID
	if rule.Check == nil {
		t.Skip("the definition declares no machine id rule, so no id is malformed")
	}
	var bad []string
	for _, id := range []string{"web-1", "not an id", "-1", "0", "../1", "1/2", "4.2", "x"} {
		if !rule.Allows(id) {
			bad = append(bad, id)
		}
	}
	if len(bad) == 0 {
		t.Fatalf("the machine id rule (%s) allows every candidate; add a malformed one for this backend", rule.Text)
	}
	before := -1
	if s.Faults != nil {
		before = s.Faults.Requests()
	}
	for what, call := range s.malformedIDCalls(t) {
		for _, id := range bad {
			err := call(s.ctx(t), id)
			if !adapter.Is(err, adapter.InvalidInput) {
				t.Errorf("%s(%q): got %v (code %q), want InvalidInput: a malformed id is neither absent nor worth a retry", what, id, err, adapter.CodeOf(err))
				continue
			}
			if adapter.Redacted(id) == id && !strings.Contains(err.Error(), id) {
				t.Errorf("%s(%q): the error does not name the id: %v", what, id, err)
			}
		}
	}
	if before >= 0 {
		if sent := s.Faults.Requests() - before; sent != 0 {
			t.Errorf("malformed ids sent %d requests to the backend; they must be refused before it is asked", sent)
		}
	}
}

// malformedCallsAreInvalidInput: a create call without an idempotency key,
// or whose claim is not one adapter.NewClaimAt gives, is InvalidInput, with
// no request sent (adapter.CheckCall), so no backend writes a claim the
// others would refuse.
func malformedCallsAreInvalidInput(t *testing.T, s *suite) {
	n := name(t, "badcall")
	good := s.call(n)
	before := -1
	if s.Faults != nil {
		before = s.Faults.Requests()
	}
	for what, call := range map[string]adapter.Call{
		"no idempotency key":       {Claim: good.Claim},
		"no claim":                 {IdempotencyKey: good.IdempotencyKey},
		"a claim that is no claim": {IdempotencyKey: good.IdempotencyKey, Claim: "not-a-claim"},
	} {
		m, err := s.adapter.Create(s.ctx(t), call, s.request(n))
		if m.ID != "" {
			s.cleanup(t, m.ID)
		}
		if !adapter.Is(err, adapter.InvalidInput) {
			t.Errorf("Create with %s: got %v (code %q), want InvalidInput", what, err, adapter.CodeOf(err))
		}
	}
	if before >= 0 {
		if sent := s.Faults.Requests() - before; sent != 0 {
			t.Errorf("malformed create calls sent %d requests to the backend; they must be refused before it is asked", sent)
		}
	}
}
