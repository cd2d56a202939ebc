package robot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

const (
	testUser     = "robot-user"
	testPassword = "robot-secret-password"
)

// clock is a settable clock for the emulator, so tests move time instead
// of waiting for it.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2030, 5, 6, 10, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

type env struct {
	e        *robot.Emulator
	farm     *fakeFarm
	clock    *clock
	endpoint string
}

// start runs an emulator with a fake farm and a settable clock.
func start(t *testing.T, opts robot.Options) *env {
	t.Helper()
	farm, c := newFakeFarm(), newClock()
	if opts.User == "" {
		opts.User, opts.Password = testUser, testPassword
	}
	opts.Farm, opts.Now = farm, c.Now
	e, endpoint, stop, err := robot.NewServer(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return &env{e: e, farm: farm, clock: c, endpoint: endpoint}
}

func (v *env) seed(t *testing.T, sd robot.ServerSeed) robot.Seeded {
	t.Helper()
	s, err := v.e.AddServer(sd)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type answer struct {
	status int
	body   []byte
}

// call sends method path with form values as Robot's clients do, with the
// test credentials.
func (v *env) call(t *testing.T, method, path string, form url.Values) answer {
	t.Helper()
	return v.callAs(t, testUser, testPassword, method, path, form)
}

func (v *env) callAs(t *testing.T, user, password, method, path string, form url.Values) answer {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, v.endpoint+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if user != "" {
		req.SetBasicAuth(user, password)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, body: b}
}

// decode reads the answer into v strictly: a field the spec's schema does
// not have fails the test.
func (a answer) decode(t *testing.T, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(a.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decoding %s into %T: %v", a.body, v, err)
	}
}

// errorIs checks an error answer's status and code.
func (a answer) errorIs(t *testing.T, status int, code string) apiError {
	t.Helper()
	var e errorEnvelope
	a.decode(t, &e)
	if a.status != status || e.Error.Code != code || e.Error.Status != status {
		t.Fatalf("answer %d %s, want %d %s", a.status, a.body, status, code)
	}
	return e.Error
}

func form(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

func fmtInt(n int) string { return strconv.Itoa(n) }

func postForm(v *env, path string, f url.Values) (*http.Response, error) {
	req, err := http.NewRequest("POST", v.endpoint+path, strings.NewReader(f.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(testUser, testPassword)
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return resp, err
}
