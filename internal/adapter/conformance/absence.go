package conformance

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Rule 3, authoritative absence (internal/adapter's package documentation): a
// call whose backend fails, refuses, is busy, never answers, loses the answer
// or lists in part is an error with the failure's code, and never NotFound:
// the Terraform layer removes a machine from state on NotFound, and would
// forget a machine that is still there.

// hangBound is the request bound of the adapter the hang faults meet: short,
// so a case costs a second, and the call must return with its context alive.
const hangBound = 300 * time.Millisecond

// classes are tried in this order on each call; drop_after_commit comes last
// because it is the one fault that changes the machine.
var classes = []FaultClass{FaultServerError, FaultRateLimited, FaultAuthRefused, FaultLocked, FaultHang, FaultPartialListing, FaultDropAfterCommit}

// wantFor is the code each class must come back as.
var wantFor = map[FaultClass]adapter.Code{
	FaultServerError:     adapter.Transient,
	FaultRateLimited:     adapter.RateLimited,
	FaultAuthRefused:     adapter.AccessDenied,
	FaultLocked:          adapter.Transient,
	FaultHang:            adapter.Transient,
	FaultPartialListing:  adapter.Transient,
	FaultDropAfterCommit: adapter.Transient,
}

// faultyCall is one contract call under a fault. A write (create, delete,
// power, update) met by drop_after_commit may succeed, since its effect took
// place; check then says whether it truly did.
type faultyCall struct {
	op    Op
	write bool
	run   func(ctx context.Context, a adapter.Adapter) error
}

// faultsAreNeverAbsence runs every contract call that reads or changes a
// machine under every fault class and under revoked credentials.
func faultsAreNeverAbsence(t *testing.T, s *suite) {
	f := s.needFaults(t)
	n := name(t, "abs")
	m := s.mustCreate(t, s.call(n), s.request(n))
	// A second managed machine, so that a listing has a second page to lose.
	n2 := name(t, "abs2")
	s.mustCreate(t, s.call(n2), s.request(n2))
	gone := s.mustCreate(t, s.call(name(t, "absdel")), s.request(name(t, "absdel")))
	hung := s.reopen(t, func(env *adapter.Env) { env.RequestTimeout = hangBound })

	for _, c := range s.faultyCalls(t, m.ID, gone.ID) {
		for _, class := range append(classes[:len(classes):len(classes)], "revoked") {
			if class == FaultPartialListing && c.op != OpList {
				continue
			}
			t.Run(c.op+"/"+class, func(t *testing.T) {
				if c.op == OpPower {
					s.settle(t, m.ID)
				}
				f.Clear()
				defer f.Clear()
				a := s.adapter
				switch class {
				case "revoked":
					if err := f.Revoke(); err != nil {
						t.Fatalf("Revoke: %v", err)
					}
				case FaultHang:
					a = hung
					fallthrough
				default:
					if err := f.FailNext(c.op, class, 0); errors.Is(err, errors.ErrUnsupported) {
						t.Skipf("the emulator cannot make %s fail with %s: %v", c.op, class, err)
					} else if err != nil {
						t.Fatalf("FailNext(%s, %s): %v", c.op, class, err)
					}
				}
				ctx := s.ctx(t)
				served := f.Requests()
				err := c.run(ctx, a)
				want := wantFor[class]
				if class == "revoked" {
					want = adapter.AccessDenied
				}
				if err == nil || !adapter.Is(err, want) {
					// A fault no request met says nothing of the adapter:
					// the emulator's table aims it at a route the adapter
					// does not call.
					if uerr := f.Unconsumed(); uerr != nil {
						t.Fatalf("%s under %s: %v", c.op, class, uerr)
					}
				}
				switch {
				case err == nil && class == FaultDropAfterCommit && c.write:
					// The call took effect and the adapter proved it.
				case err == nil:
					// How many requests the backend counted tells a call
					// that never sent its write from one that got an answer.
					t.Fatalf("%s under %s succeeded; the backend answered nothing that could be success (it counted %d requests during the call)",
						c.op, class, f.Requests()-served)
				case adapter.IsNotFound(err):
					t.Fatalf("%s under %s is NotFound, which is authoritative absence: %v", c.op, class, err)
				case ctx.Err() != nil:
					t.Fatalf("%s under %s returned only when its context ended: each request needs its own bound (rule 7, honour the context): %v", c.op, class, err)
				default:
					wantCode(t, c.op+" under "+class, err, want)
				}
				if class == FaultRateLimited && adapter.RetryAfterOf(err) <= 0 {
					t.Errorf("%s under a rate limit carries no retry-after: %v", c.op, err)
				}
			})
		}
	}
}

// faultyCalls are the calls the matrix runs: Get, List, Delete, Power,
// Update and Create, those the adapter offers. Delete aims at machine gone,
// which a committed delete removes; the others at machine id.
func (s *suite) faultyCalls(t *testing.T, id, gone string) []faultyCall {
	calls := []faultyCall{
		{op: OpGet, run: func(ctx context.Context, a adapter.Adapter) error { _, err := a.Get(ctx, id); return err }},
		{op: OpCreate, write: true, run: func(ctx context.Context, a adapter.Adapter) error {
			n := name(t, "abscr")
			call := s.call(n)
			m, err := a.Create(ctx, call, s.request(n))
			if err == nil {
				s.cleanup(t, m.ID)
				if m.ID == "" || m.Key != call.IdempotencyKey {
					t.Errorf("Create returned %+v, want the machine carrying key %s", m, call.IdempotencyKey)
				}
			}
			return err
		}},
	}
	if _, ok := s.adapter.(adapter.Lister); ok {
		calls = append(calls, faultyCall{op: OpList, run: func(ctx context.Context, a adapter.Adapter) error {
			l, ok := a.(adapter.Lister)
			if !ok {
				return lost(a, "List")
			}
			_, err := l.List(ctx)
			return err
		}})
	}
	if _, ok := s.adapter.(adapter.Powerer); ok {
		calls = append(calls, faultyCall{op: OpPower, write: true, run: func(ctx context.Context, a adapter.Adapter) error {
			p, ok := a.(adapter.Powerer)
			if !ok {
				return lost(a, "Power")
			}
			return p.Power(ctx, id, s.opposite(t, id))
		}})
	}
	if _, ok := s.adapter.(adapter.Updater); ok {
		calls = append(calls, faultyCall{op: OpUpdate, write: true, run: func(ctx context.Context, a adapter.Adapter) error {
			u, ok := a.(adapter.Updater)
			if !ok {
				return lost(a, "Update")
			}
			_, err := u.Update(ctx, id, s.change(t, "u"))
			return err
		}})
	}
	// Last: a committed delete leaves nothing for the calls after it.
	return append(calls, faultyCall{op: OpDelete, write: true, run: func(ctx context.Context, a adapter.Adapter) error {
		return a.Delete(ctx, gone)
	}})
}

// settle waits until machine id is running or stopped, so a power call has
// something to switch; without observable power it returns at once.
func (s *suite) settle(t *testing.T, id string) {
	t.Helper()
	if !s.PowerObservable {
		return
	}
	if s.Faults != nil {
		s.Faults.Clear()
	}
	s.waitFor(t, id, "running or stopped", func(m adapter.Machine, err error) bool {
		return err == nil && (m.State == adapter.StateRunning || m.State == adapter.StateStopped)
	})
}

// opposite is the power action that changes machine id, so the call must
// reach the backend.
func (s *suite) opposite(t *testing.T, id string) adapter.PowerAction {
	if !s.PowerObservable {
		return adapter.PowerOff
	}
	// The fault is aimed at the power request, not at this read.
	m, err := s.adapter.Get(s.ctx(t), id)
	if err == nil && m.State == adapter.StateStopped {
		return adapter.PowerOn
	}
	return adapter.PowerOff
}

// lost is the failure of a faulty call whose adapter (the one under test,
// rebuilt against a faulty endpoint) no longer offers the capability the
// adapter under test declared.
func lost(a adapter.Adapter, capability string) error {
	return fmt.Errorf("the adapter %T against the faulty endpoint offers no %s, which the adapter under test does", a, capability)
}
