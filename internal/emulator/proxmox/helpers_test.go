package proxmox_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

const (
	tokenID     = "root@pam!tf"
	tokenSecret = "5f0c1c9e-7a4b-4d2e-9f6a-0b1c2d3e4f50"
)

type harness struct {
	t      *testing.T
	e      *proxmox.Emulator
	url    string
	client *http.Client
	token  string
	last   string // the UPID task last saw
}

func (h *harness) lastTask() string { return h.last }

func start(t *testing.T, opts proxmox.Options) *harness {
	t.Helper()
	if opts.Tokens == nil {
		opts.Tokens = map[string]string{tokenID: tokenSecret}
	}
	e, u, stop, err := proxmox.NewServer(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		// The tests trust the emulator's fresh certificate by its pin.
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
	}}
	return &harness{t: t, e: e, url: u, client: client, token: "PVEAPIToken=" + tokenID + "=" + tokenSecret}
}

// answer is one API answer: the status, the reason phrase and the body.
type answer struct {
	status int
	phrase string
	body   map[string]any
	raw    string
}

func (a answer) data() any { return a.body["data"] }

func (h *harness) do(ctx context.Context, method, path string, form url.Values) (answer, error) {
	var body io.Reader
	u := h.url + proxmox.APIPrefix + path
	if method == http.MethodGet || method == http.MethodDelete {
		if len(form) > 0 {
			u += "?" + form.Encode()
		}
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return answer{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if h.token != "" {
		req.Header.Set("Authorization", h.token)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, phrase: strings.TrimPrefix(resp.Status, resp.Status[:4]), raw: string(raw)}
	if err := json.Unmarshal(raw, &a.body); err != nil {
		h.t.Fatalf("%s %s: %s with body %q, not JSON: %v", method, path, resp.Status, raw, err)
	}
	return a, nil
}

func (h *harness) call(method, path string, kv ...string) answer {
	h.t.Helper()
	form := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		form.Add(kv[i], kv[i+1])
	}
	a, err := h.do(context.Background(), method, path, form)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	return a
}

// ok calls and fails the test unless PVE would answer 200.
func (h *harness) ok(method, path string, kv ...string) any {
	h.t.Helper()
	a := h.call(method, path, kv...)
	if a.status != http.StatusOK {
		h.t.Fatalf("%s %s: %d %s %s", method, path, a.status, a.phrase, a.raw)
	}
	return a.data()
}

// task calls a route that answers a UPID and waits for the task.
func (h *harness) task(method, path string, kv ...string) (upid, exit string) {
	h.t.Helper()
	upid, _ = h.ok(method, path, kv...).(string)
	h.last = upid
	if !strings.HasPrefix(upid, "UPID:") {
		h.t.Fatalf("%s %s answered %q, not a UPID", method, path, upid)
	}
	exit, err := h.e.WaitTask(upid, 10*time.Second)
	if err != nil {
		h.t.Fatal(err)
	}
	return upid, exit
}

func (h *harness) mustTask(method, path string, kv ...string) string {
	h.t.Helper()
	upid, exit := h.task(method, path, kv...)
	if exit != "OK" {
		h.t.Fatalf("%s %s: task %s ended %q", method, path, upid, exit)
	}
	return upid
}

// expectError checks status and reason phrase.
func expectError(t *testing.T, a answer, status int, phrase string) {
	t.Helper()
	if a.status != status || a.phrase != phrase {
		t.Fatalf("answer %d %q (%s), want %d %q", a.status, a.phrase, a.raw, status, phrase)
	}
	if a.body["data"] != nil {
		t.Fatalf("error body %s: want data null", a.raw)
	}
}

// fakeClock is a clock a test steps by hand.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []fakeWaiter
}

type fakeWaiter struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_760_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.waiters = append(c.waiters, fakeWaiter{at: c.now.Add(d), ch: ch})
	return ch
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if !w.at.After(c.now) {
			w.ch <- c.now
			continue
		}
		kept = append(kept, w)
	}
	c.waiters = kept
}

func mustEd25519(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
