package conformance

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Target is one backend account the suite runs against.
type Target struct {
	Definition adapter.Definition
	Settings   map[string]string
	Env        adapter.Env

	// OfferID, Image and Location make a create request that succeeds.
	OfferID, Image, Location string

	// SeedUnmarked creates a machine without the adapter's marks, the way a
	// user would by hand, and returns its machine id.
	SeedUnmarked func(t *testing.T, name string) (id string)

	// PowerObservable is true when Get reports power changes, so the suite
	// checks the states and not only that Power succeeds.
	PowerObservable bool

	// MissingID is a well-formed machine id that does not exist; "999999999"
	// when empty.
	MissingID string

	// Wait bounds each poll for an eventual state; 30 seconds when zero.
	Wait time.Duration
}

// Run runs every case, each with a fresh target from newTarget.
func Run(t *testing.T, newTarget func(t *testing.T) Target) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.run(t, open(t, newTarget(t)))
		})
	}
}

type testCase struct {
	name string
	run  func(t *testing.T, s *suite)
}

// suite is one opened target.
type suite struct {
	Target
	adapter adapter.Adapter
	scope   string
}

func open(t *testing.T, tg Target) *suite {
	t.Helper()
	if tg.MissingID == "" {
		tg.MissingID = "999999999"
	}
	if tg.Wait == 0 {
		tg.Wait = 30 * time.Second
	}
	if tg.Env.Clock == nil {
		tg.Env.Clock = adapter.RealClock{}
	}
	norm, err := tg.Definition.Normalize(tg.Settings)
	if err != nil {
		t.Fatalf("Normalize(%v): %v", tg.Settings, err)
	}
	a, err := tg.Definition.New(norm, tg.Env)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	l := adapter.Locator{Kind: tg.Definition.Kind, Settings: norm}
	return &suite{Target: tg, adapter: a, scope: l.Scope(tg.Definition.ScopeKeys())}
}

// ctx bounds one case step.
func (s *suite) ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), s.Wait)
	t.Cleanup(cancel)
	return ctx
}

// name returns a fresh machine name, valid as a host name everywhere.
func name(t *testing.T, what string) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return "conf-" + what + "-" + hex.EncodeToString(b)
}

func (s *suite) request(name string) adapter.CreateRequest {
	return adapter.CreateRequest{
		Name:     name,
		OfferID:  s.OfferID,
		Image:    s.Image,
		Location: s.Location,
		UserData: "#cloud-config\n",
		Labels:   map[string]string{"suite": "conformance"},
		PowerOn:  true,
	}
}

func (s *suite) call(name string) adapter.Call {
	return adapter.Call{IdempotencyKey: adapter.IdempotencyKey(s.scope, name), Claim: adapter.NewClaim()}
}

// create creates a machine, retrying what the Terraform layer retries, and
// deletes it when the test ends.
func (s *suite) create(t *testing.T, call adapter.Call, req adapter.CreateRequest) (adapter.Machine, error) {
	t.Helper()
	var m adapter.Machine
	err := s.retry(t, "create "+req.Name, func(ctx context.Context) error {
		var err error
		m, err = s.adapter.Create(ctx, call, req)
		return err
	})
	if err == nil {
		s.cleanup(t, m.ID)
	}
	return m, err
}

// mustCreate is create that fails the test on error.
func (s *suite) mustCreate(t *testing.T, call adapter.Call, req adapter.CreateRequest) adapter.Machine {
	t.Helper()
	m, err := s.create(t, call, req)
	if err != nil {
		t.Fatalf("Create(%s): %v", req.Name, err)
	}
	if m.ID == "" {
		t.Fatalf("Create(%s) returned a machine without an id", req.Name)
	}
	return m
}

func (s *suite) cleanup(t *testing.T, id string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), s.Wait)
		defer cancel()
		err := adapter.Retry(ctx, s.Env.Clock, backoff, "delete "+id, func(ctx context.Context) error {
			return s.adapter.Delete(ctx, id)
		})
		if err != nil && !adapter.IsNotFound(err) {
			t.Errorf("cleanup: Delete(%s): %v", id, err)
		}
	})
}

// backoff is short: targets are emulators or test accounts, and a case
// that needs long waits is itself a finding.
var backoff = adapter.Backoff{Initial: 10 * time.Millisecond, Max: 250 * time.Millisecond}

// retry runs fn with the retry policy the Terraform layer applies.
func (s *suite) retry(t *testing.T, what string, fn func(context.Context) error) error {
	return adapter.Retry(s.ctx(t), s.Env.Clock, backoff, what, fn)
}

// waitFor polls Get until done reports true.
func (s *suite) waitFor(t *testing.T, id, what string, done func(adapter.Machine, error) bool) {
	t.Helper()
	var last adapter.Machine
	var lastErr error
	err := adapter.WaitFor(s.ctx(t), s.Env.Clock, backoff, what, func(ctx context.Context) (bool, error) {
		last, lastErr = s.adapter.Get(ctx, id)
		if done(last, lastErr) {
			return true, nil
		}
		if lastErr != nil && !adapter.IsNotFound(lastErr) && adapter.CodeOf(lastErr) != adapter.Transient {
			return false, lastErr
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("waiting for %s of %s: %v (last state %q raw %q, last error %v)", what, id, err, last.State, last.RawState, lastErr)
	}
}

func wantCode(t *testing.T, what string, err error, codes ...adapter.Code) {
	t.Helper()
	for _, c := range codes {
		if adapter.Is(err, c) {
			return
		}
	}
	names := make([]string, len(codes))
	for i, c := range codes {
		names[i] = string(c)
	}
	t.Fatalf("%s: got %v (code %q), want code %s", what, err, adapter.CodeOf(err), strings.Join(names, " or "))
}
