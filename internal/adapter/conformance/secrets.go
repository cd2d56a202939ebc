package conformance

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Rule 6, no secret leaves (internal/adapter's package documentation): the
// credentials and the user data appear in no error, in no Machine and in no
// log line. Run checks the log lines of every case; this case provokes as many
// failures as it can, where backends echo requests and clients quote them, and
// checks every error in each chain.

// secretsNeverLeak provokes failures of every kind and checks what comes
// back.
func secretsNeverLeak(t *testing.T, s *suite) {
	if len(s.Secrets) == 0 {
		t.Fatal("Target.Secrets is empty: name the values the target's credentials resolve to, or this case proves nothing about them")
	}
	var errs []error
	var machines []adapter.Machine
	try := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	ctx := func() context.Context { return s.ctx(t) }

	n := name(t, "secret")
	call, req := s.call(n), s.request(n)
	m := s.mustCreate(t, call, req)
	machines = append(machines, m, s.get(t, m.ID))
	if l, ok := s.adapter.(adapter.Lister); ok {
		ms, err := l.List(ctx())
		try(err)
		machines = append(machines, ms...)
	}

	// Failures the backend or the adapter decide on their own.
	other := req
	other.UserData = userData + "# changed\n"
	_, err := s.adapter.Create(ctx(), call, other)
	try(err)
	bad := s.request(name(t, "badoffer"))
	bad.OfferID = "no-such-offer"
	_, err = s.adapter.Create(ctx(), s.call(bad.Name), bad)
	try(err)
	if v, ok := s.adapter.(adapter.Validator); ok {
		try(v.Validate(ctx(), bad))
	}
	_, err = s.adapter.Get(ctx(), s.MissingID)
	try(err)
	_, err = s.adapter.Get(ctx(), "not an id")
	try(err)

	// Failures the emulator makes: refused, failing, busy and silent
	// backends, lost answers and revoked credentials, on every call.
	if f := s.Faults; f != nil {
		hung := s.reopen(t, func(env *adapter.Env) { env.RequestTimeout = hangBound })
		for _, c := range s.faultyCalls(t, m.ID, m.ID) {
			if c.op == OpDelete {
				continue // the machine is needed below
			}
			for _, class := range []FaultClass{FaultServerError, FaultRateLimited, FaultAuthRefused, FaultHang, "revoked"} {
				f.Clear()
				a := s.adapter
				switch class {
				case "revoked":
					try(f.Revoke())
				case FaultHang:
					a = hung
					fallthrough
				default:
					if err := f.FailNext(c.op, class, 0); err != nil && !errors.Is(err, errors.ErrUnsupported) {
						t.Fatalf("FailNext(%s, %s): %v", c.op, class, err)
					}
				}
				err := c.run(ctx(), a)
				if err == nil && class != "revoked" {
					// A call that succeeded under a fault met none: the
					// emulator's table aims it at a route the adapter does
					// not call, and the case would prove nothing of it.
					if uerr := f.Unconsumed(); uerr != nil {
						t.Fatalf("%s under %s: %v", c.op, class, uerr)
					}
				}
				try(err)
			}
		}
		f.Clear()
		if err := f.FailNext(OpCreate, FaultDropAfterCommit, 1); err == nil {
			dropped := s.request(name(t, "drop"))
			got, err := s.adapter.Create(ctx(), s.call(dropped.Name), dropped)
			try(err)
			if err == nil {
				s.cleanup(t, got.ID)
				machines = append(machines, got)
			}
		}
		f.Clear()
	}

	if len(errs) < 5 {
		t.Fatalf("only %d failures were provoked; the check below would prove little", len(errs))
	}
	sentinels := s.sentinels()
	for _, err := range errs {
		text := everything(err)
		for _, v := range sentinels {
			if strings.Contains(text, v) {
				t.Errorf("an error carries a secret or user data (%.12s…): %s", v, text)
			}
		}
	}
	for _, m := range machines {
		text := fmt.Sprintf("%+v", m)
		if strings.Contains(text, userDataSentinel) {
			t.Errorf("machine %s carries the user data: %s", m.ID, text)
		}
	}
	t.Logf("%d failures checked; the adapter wrote %d log lines through Env.Log", len(errs), s.log.count())
}
