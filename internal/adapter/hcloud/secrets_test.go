package hcloud

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// lockedBuffer is a log sink safe for concurrent writers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// everything renders err and every error in its chain every way a caller
// might print it.
func everything(err error) string {
	var sb strings.Builder
	for e := err; e != nil; e = errors.Unwrap(e) {
		fmt.Fprintf(&sb, "%v\n%+v\n%s\n", e, e, e.Error())
	}
	return sb.String()
}

func TestSecretsNeverLeak(t *testing.T) {
	const (
		token      = "SENTINEL-TOKEN-b7e1c0"
		wrongToken = "SENTINEL-WRONG-TOKEN-44aa"
		userData   = "#cloud-config\n# SENTINEL-USERDATA-9c2f\n"
	)
	e, endpoint := startEmulator(t, emu.Options{Token: token})
	logs := &textLogger{}
	loggedEnv := func(token string) adapter.Env { env := testEnv(token); env.Log = logs; return env }
	a := newTestAccountWith(t, testSettings(endpoint), loggedEnv(token))

	var errs []error
	record := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	req := testRequest("web-1")
	req.UserData = userData
	m, err := a.Create(ctxT(t), testCall("web-1"), req)
	if err != nil {
		t.Fatal(err)
	}
	e.DropNext("POST", "/servers", 1)
	dropped := req
	dropped.Name = "web-2"
	_, err = a.Create(ctxT(t), testCall("web-2"), dropped)
	record(err)

	changed := req
	changed.UserData = userData + "# more\n"
	_, err = a.Create(ctxT(t), testCall("web-1"), changed)
	record(err)
	bad := req
	bad.Name, bad.OfferID = "web-3", "cx99"
	_, err = a.Create(ctxT(t), testCall("web-3"), bad)
	record(err)
	e.AddServer(emu.Server{Name: "taken"})
	taken := req
	taken.Name = "taken"
	_, err = a.Create(ctxT(t), testCall("taken"), taken)
	record(err)
	record(a.Validate(ctxT(t), bad))
	e.FailNext("GET", "/servers/{id}", 1, 500, "server_error")
	_, err = a.Get(ctxT(t), m.ID)
	record(err)

	wrong := newTestAccountWith(t, testSettings(endpoint), loggedEnv(wrongToken))
	_, err = wrong.Create(ctxT(t), testCall("web-4"), req)
	record(err)
	record(wrong.Check(ctxT(t)))

	withNewline := newTestAccountWith(t, testSettings(endpoint), loggedEnv(token+"\nX"))
	_, err = withNewline.Get(ctxT(t), m.ID)
	checkClassified(t, err, adapter.InvalidConfig, "token", []string{"provider://hcloud"})
	record(err)

	missing := testSettings(endpoint)
	missing["token"] = "provider://nowhere"
	_, err = newTestAccountWith(t, missing, loggedEnv(token)).Get(ctxT(t), m.ID)
	checkClassified(t, err, adapter.InvalidConfig, "token", []string{"provider://nowhere"})
	record(err)

	if len(errs) < 8 {
		t.Fatalf("only %d failures were provoked", len(errs))
	}
	for _, err := range errs {
		text := everything(err)
		for _, secret := range []string{token, wrongToken, "SENTINEL-USERDATA"} {
			if strings.Contains(text, secret) {
				t.Errorf("an error shows a secret: %s", text)
			}
		}
	}
	seen := logs.String()
	if !strings.Contains(seen, "API request") {
		t.Fatalf("the logger saw nothing; the check below would prove nothing:\n%s", seen)
	}
	for _, secret := range []string{token, wrongToken, "SENTINEL-USERDATA"} {
		if strings.Contains(seen, secret) {
			t.Errorf("the log shows %s:\n%s", secret, seen)
		}
	}
}

// countingSecrets resolves to whatever value holds, counting calls.
type countingSecrets struct {
	calls atomic.Int32
	value atomic.Value
}

func (c *countingSecrets) Resolve(_ context.Context, ref string) (string, error) {
	c.calls.Add(1)
	return c.value.Load().(string), nil
}

func TestTokenIsResolvedOnEveryRequest(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	id := strconv.FormatInt(e.AddServer(emu.Server{Name: "seeded"}), 10)
	secrets := &countingSecrets{}
	secrets.value.Store("stale-token")
	a := newTestAccountWith(t, testSettings(endpoint), adapter.Env{Secrets: secrets, Clock: adaptertest.InstantClock{}})
	if _, err := a.Get(ctxT(t), id); !adapter.Is(err, adapter.AccessDenied) {
		t.Fatalf("stale token: %v, want AccessDenied", err)
	}
	secrets.value.Store(testToken)
	if _, err := a.Get(ctxT(t), id); err != nil {
		t.Fatalf("after rotation, without reopening the account: %v", err)
	}
	if got := secrets.calls.Load(); got != 2 {
		t.Errorf("Resolve called %d times for 2 requests", got)
	}
}

func TestCallsReturnOnCancel(t *testing.T) {
	_, endpoint := startEmulator(t, emu.Options{Latency: time.Hour})
	a := newTestAccount(t, endpoint)
	// The emulator answers after an hour, so only the deadline can end the
	// call: the error wrapping it is the proof, whatever the machine's speed.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := a.Get(ctx, "4200001")
	if !adapter.Is(err, adapter.Transient) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want Transient wrapping the deadline", err)
	}
}
