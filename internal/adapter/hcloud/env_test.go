package hcloud

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

const testToken = "test-token-3f9e"

// testOptions poll actions back to back and bound every request loosely.
func testOptions() options {
	return options{
		poll:           adapter.Backoff{Initial: time.Millisecond, Max: time.Millisecond},
		requestTimeout: 10 * time.Second,
	}
}

// startEmulator runs an emulator on 127.0.0.1 for the test's lifetime.
func startEmulator(t *testing.T, opts emu.Options) (*emu.Emulator, string) {
	t.Helper()
	if opts.Token == "" {
		opts.Token = testToken
	}
	ctx, cancel := context.WithCancel(context.Background())
	e, endpoint, stop, err := emu.NewServer(ctx, opts)
	if err != nil {
		cancel()
		t.Fatalf("start emulator: %v", err)
	}
	t.Cleanup(func() { stop(); cancel() })
	return e, endpoint
}

// testSettings are an account's settings with the token in the provider's
// secrets map under "hcloud".
func testSettings(endpoint string) map[string]string {
	return map[string]string{"token": "provider://hcloud", "endpoint": endpoint, "location": "fsn1"}
}

func testEnv(token string) adapter.Env {
	return adapter.Env{
		Secrets:   adapter.SecretResolver{Provider: map[string]string{"hcloud": token}},
		Clock:     adaptertest.InstantClock{},
		UserAgent: "terraform-provider-compute/test",
	}
}

// newTestAccount opens an account on endpoint through the definition, as
// the registry does; tune adjusts the options first.
func newTestAccount(t *testing.T, endpoint string, tune ...func(*options)) *account {
	t.Helper()
	return newTestAccountWith(t, testSettings(endpoint), testEnv(testToken), tune...)
}

func newTestAccountWith(t *testing.T, settings map[string]string, env adapter.Env, tune ...func(*options)) *account {
	t.Helper()
	opts := testOptions()
	for _, f := range tune {
		f(&opts)
	}
	def := definition(opts)
	norm, err := def.Normalize(settings, nil)
	if err != nil {
		t.Fatalf("Normalize: %v", err)
	}
	a, err := def.New(norm, env)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return a.(*account)
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func testRequest(name string) adapter.CreateRequest {
	return adapter.CreateRequest{Name: name, OfferID: "cx22", Image: "ubuntu-24.04", UserData: "#cloud-config\n", Labels: map[string]string{"env": "test"}, PowerOn: true}
}

func testCall(name string) adapter.Call {
	return adapter.Call{IdempotencyKey: adapter.IdempotencyKey("hcloud&endpoint=test", name), Claim: adapter.NewClaim()}
}

// roundTripFunc adapts a function to http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
