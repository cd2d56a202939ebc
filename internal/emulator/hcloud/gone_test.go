package hcloud_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestCreateOfAGoneClientOverTCP sends a server create over a real TCP
// connection and gives up while the emulator holds it. The global latency
// and delay_if_connected promise that such a write is never served; Go's
// server notices a client that has gone only once the request body has
// been read, so this holds for a POST only if the emulator takes the body in
// before it waits. delay_then_commit, which runs the write whatever the
// client does, shows that the test would see a commit.
func TestCreateOfAGoneClientOverTCP(t *testing.T) {
	const hold = 2 * time.Second
	for _, tc := range []struct {
		name    string
		arm     func(*faults.Middleware) error
		commits bool
	}{
		{"global latency", func(m *faults.Middleware) error { m.SetLatency(hold); return nil }, false},
		{"delay_if_connected", func(m *faults.Middleware) error { return m.DelayIfConnectedNext("POST", "/servers", 1, hold) }, false},
		{"delay_then_commit", func(m *faults.Middleware) error { return m.DelayThenCommitNext("POST", "/servers", 1, hold) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := emulator.New(emulator.Options{Token: testToken})
			if err := tc.arm(e.Faults()); err != nil {
				t.Fatal(err)
			}
			// arrived tells the client to give up once the server has the
			// request, so the test neither races the request nor sleeps.
			arrived := make(chan struct{}, 1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				arrived <- struct{}{}
				e.ServeHTTP(w, r)
			}))
			defer srv.Close()

			ctx, giveUp := context.WithCancel(context.Background())
			defer giveUp()
			go func() {
				<-arrived
				giveUp()
			}()
			req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+emulator.BasePath+"/servers",
				strings.NewReader(`{"name":"gone-1","server_type":"cx22","image":"ubuntu-24.04"}`))
			req.Header.Set("Authorization", "Bearer "+testToken)
			req.Header.Set("Content-Type", "application/json")
			resp, err := srv.Client().Do(req)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("the held create answered %d before its client gave up", resp.StatusCode)
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("the client failed otherwise than by giving up: %v", err)
			}
			// Close waits for every request in flight: after it, the
			// emulator has served or dropped the create for good.
			srv.Close()
			if n := e.Stats()["POST /servers"]; n != 1 {
				t.Fatalf("the emulator saw %d creates, want 1", n)
			}
			if got := len(e.Servers()); (got == 1) != tc.commits || got > 1 {
				t.Errorf("%d servers after the client gave up, want committed=%v", got, tc.commits)
			}
		})
	}
}
