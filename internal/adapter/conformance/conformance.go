package conformance

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
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

	// InRescue, for a target whose adapter declares adapter.CapRescue,
	// reports whether machine id runs its rescue system or has it armed for
	// its next boot, as the backend's own record shows it: the rescue case
	// checks with it that a refused Rescue armed and booted nothing.
	InRescue func(t *testing.T, id string) bool

	// PoweredWhilePending is true when a machine that is up but not ready
	// (pending: no address yet) may offer the running machine's actions,
	// because its backend reports power apart from readiness and stopping
	// or restarting it needs nothing from the guest (Proxmox's status).
	PoweredWhilePending bool

	// PowerReceived, for a target whose Get cannot see power, reports the
	// power actions machine id has received so far, oldest first, in the
	// contract's words, as the backend's own record shows them (an
	// emulator's, read back from the command each action sent). The power
	// cases then check that every action reached the machine as itself.
	// Nil, with PowerObservable false, leaves them checking only that each
	// action succeeds.
	PowerReceived func(t *testing.T, id string) []adapter.PowerAction

	// NoLabels and NoUserData say the backend takes no labels, or no user
	// data, at create: the suite's requests then carry none. Where a case
	// changes a machine's labels it renames it instead (NoLabels); where it
	// changes the user data to change the fingerprint it changes the image
	// to OtherImage (NoUserData). Every other check stands: user data the
	// backend refuses must still not come back in the refusal.
	NoLabels, NoUserData bool
	OtherImage           string

	// ReservedLabel, for a backend that keeps the mark in labels, is one
	// label name the mark's spelling reserves (marks.Default's
	// "compute.seedcompute.io/managed"): a user's label of that name must
	// be refused. Empty skips the case.
	ReservedLabel string

	// MissingID is a well-formed machine id that does not exist; "999999999"
	// when empty. A backend whose ids are not numbers sets one of its own
	// shape: the suite fails once, saying so, when the adapter refuses the
	// default as malformed (missing.go).
	MissingID string

	// Wait bounds each poll for an eventual state; 30 seconds when zero.
	Wait time.Duration

	// Faults are the emulator's fault hooks. Nil skips the cases that need
	// them: a real account cannot be made to fail on demand.
	Faults Faults

	// Secrets are the values the target's credentials resolve to. No error
	// and no log line may carry one.
	Secrets []string

	// ServeImpostor serves h on loopback where the target's API would be
	// and returns the target's settings pointed at it (the endpoint, and
	// whatever pins the connection to it). Nil skips the case of an
	// endpoint that is not the API.
	ServeImpostor func(t *testing.T, h http.Handler) map[string]string
	// UnknownRoute, when the API has its own answer for a path it has no
	// route for that differs from its answer for a missing machine (Robot's
	// NOT_FOUND beside SERVER_NOT_FOUND), is that answer's status and JSON
	// body: an impostor answering it everywhere is a mistyped path.
	UnknownRoute *UnknownRoute
}

// UnknownRoute is an API's answer for a path it has no route for.
type UnknownRoute struct {
	Status int
	Body   string
}

// Run runs every case, each with a fresh target from newTarget. Whatever the
// adapter logs through Env.Log during a case is checked afterwards for the
// target's secrets and the suite's user data, so every case is also a
// sentinel test of the adapter's logs.
func Run(t *testing.T, newTarget func(t *testing.T) Target) {
	verdict := &missingVerdict{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := open(t, newTarget(t), verdict)
			// Deferred, so a case that stops at a failure is checked too.
			defer s.log.checkClean(t, s.sentinels())
			c.run(t, s)
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
	// log captures every line the adapter writes through Env.Log.
	log *capture
	// verdict judges the default missing id, shared by the Run's cases;
	// nil when the target sets its own.
	verdict *missingVerdict
}

func open(t *testing.T, tg Target, verdict *missingVerdict) *suite {
	t.Helper()
	if tg.MissingID != "" {
		verdict = nil
	} else {
		tg.MissingID = defaultMissingID
	}
	if tg.Wait == 0 {
		tg.Wait = 30 * time.Second
	}
	if tg.Env.Clock == nil {
		tg.Env.Clock = adapter.RealClock{}
	}
	log := &capture{next: tg.Env.Log}
	tg.Env.Log = log
	s := &suite{Target: tg, log: log, verdict: verdict}
	s.adapter = s.reopen(t, func(*adapter.Env) {})
	s.scope = tg.Definition.Scope(s.normalized(t))
	return s
}

func (s *suite) normalized(t *testing.T) map[string]string {
	t.Helper()
	norm, err := s.Definition.Normalize(s.Settings, nil)
	if err != nil {
		t.Fatalf("Normalize(%v): %v", s.Settings, err)
	}
	return norm
}

// reopen builds another adapter for the same account with tune applied to
// its Env, e.g. a shorter or a longer request bound; its log lines are
// captured like the first one's.
func (s *suite) reopen(t *testing.T, tune func(*adapter.Env)) adapter.Adapter {
	t.Helper()
	env := s.Env
	tune(&env)
	a, err := s.Definition.New(s.normalized(t), env)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return a
}

// needFaults returns the target's fault hooks, or skips the case.
func (s *suite) needFaults(t *testing.T) Faults {
	t.Helper()
	if s.Faults == nil {
		t.Skip("the target has no fault hooks")
	}
	return s.Faults
}

// ctx bounds one case step.
func (s *suite) ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(s.logged(), s.Wait)
	t.Cleanup(cancel)
	return ctx
}

// logged is a background context carrying the capturing logger, which the
// contract's retries and waits, and adapters that do the same, log to.
func (s *suite) logged() context.Context {
	return adapter.WithLogger(context.Background(), s.log)
}

// name returns a fresh machine name, valid as a host name everywhere.
func name(t *testing.T, what string) string {
	b := make([]byte, 3)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("a fresh machine name: %v", err)
	}
	return "conf-" + what + "-" + hex.EncodeToString(b)
}

func (s *suite) request(name string) adapter.CreateRequest {
	req := adapter.CreateRequest{
		Name:     name,
		OfferID:  s.OfferID,
		Image:    s.Image,
		Location: s.Location,
		UserData: userData,
		Labels:   map[string]string{"suite": "conformance"},
		PowerOn:  true,
	}
	if s.NoUserData {
		req.UserData = ""
	}
	if s.NoLabels {
		req.Labels = nil
	}
	return req
}

// change is an update that changes a machine where every backend can see
// it: its labels, or its name on a backend without labels. tag is in the
// new value, so a read can tell whether it took effect.
func (s *suite) change(t *testing.T, tag string) adapter.UpdateRequest {
	if s.NoLabels {
		n := name(t, tag)
		return adapter.UpdateRequest{Name: &n}
	}
	return adapter.UpdateRequest{Labels: map[string]string{"suite": tag}}
}

// changed reports whether m shows the change tagged tag.
func (s *suite) changed(m adapter.Machine, tag string) bool {
	if s.NoLabels {
		return strings.HasPrefix(m.Name, "conf-"+tag+"-")
	}
	return m.Labels["suite"] == tag
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
	checkMachine(t, "Create", m)
	return m
}

func (s *suite) cleanup(t *testing.T, id string) {
	t.Cleanup(func() {
		if s.Faults != nil {
			s.Faults.Clear()
		}
		ctx, cancel := context.WithTimeout(s.logged(), s.Wait)
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
		if lastErr == nil {
			checkMachine(t, "Get", last)
		}
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
