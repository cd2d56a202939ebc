package hcloud_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func TestWrongTokenIsUnauthorized(t *testing.T) {
	e, _, endpoint := start(t, emulator.Options{Token: "right"})
	c := newClient(endpoint, "wrong")
	_, _, err := c.Server.List(ctx(t), hcloud.ServerListOpts{})
	if !hcloud.IsError(err, hcloud.ErrorCodeUnauthorized) {
		t.Fatalf("err = %v, want unauthorized", err)
	}
	var apiErr hcloud.Error
	if !errors.As(err, &apiErr) || apiErr.Response().StatusCode != http.StatusUnauthorized {
		t.Errorf("want a 401 API error, got %v", err)
	}
	if n := e.Stats()["GET /servers"]; n != 1 {
		t.Errorf("unauthenticated calls are counted too: %d", n)
	}
}

func createOpts(name, serverType, image, location string) hcloud.ServerCreateOpts {
	o := hcloud.ServerCreateOpts{Name: name, ServerType: &hcloud.ServerType{Name: serverType}, Image: &hcloud.Image{Name: image}}
	if location != "" {
		o.Location = &hcloud.Location{Name: location}
	}
	return o
}

func TestCreateValidation(t *testing.T) {
	_, c, _ := start(t, emulator.Options{})
	for _, tc := range []struct {
		name string
		opts hcloud.ServerCreateOpts
		code hcloud.ErrorCode
		msg  string
	}{
		{"unknown type", createOpts("a", "cx99", "ubuntu-24.04", ""), hcloud.ErrorCodeInvalidInput, "server type not found"},
		{"unknown image", createOpts("a", "cx22", "windows-11", ""), hcloud.ErrorCodeInvalidInput, "image not found"},
		{"unknown location", createOpts("a", "cx22", "ubuntu-24.04", "mars1"), hcloud.ErrorCodeInvalidInput, "location not found"},
		{"type not offered there", createOpts("a", "cx22", "ubuntu-24.04", "ash"), hcloud.ErrorCodeInvalidInput, "unsupported location for server type"},
		{"type sold out there", createOpts("a", "cx32", "ubuntu-24.04", "fsn1"), hcloud.ErrorCodeResourceUnavailable, "not available in location fsn1"},
		{"deprecated type", createOpts("a", "cx11", "ubuntu-24.04", ""), hcloud.ErrorCodeResourceUnavailable, "not available in any location"},
		{"bad name", createOpts("not_a_hostname", "cx22", "ubuntu-24.04", ""), hcloud.ErrorCodeInvalidInput, "invalid input in field 'name'"},
		{"reserved label", func() hcloud.ServerCreateOpts {
			o := createOpts("a", "cx22", "ubuntu-24.04", "")
			o.Labels = map[string]string{"hetzner.cloud/x": "y"}
			return o
		}(), hcloud.ErrorCodeInvalidInput, "invalid input in field 'labels'"},
		{"user data too long", func() hcloud.ServerCreateOpts {
			o := createOpts("a", "cx22", "ubuntu-24.04", "")
			o.UserData = strings.Repeat("x", 32*1024+1)
			return o
		}(), hcloud.ErrorCodeInvalidInput, "invalid input in field 'user_data'"},
	} {
		_, _, err := c.Server.Create(ctx(t), tc.opts)
		if !hcloud.IsError(err, tc.code) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want %s containing %q", tc.name, err, tc.code, tc.msg)
		}
	}

	// cx32 is sold out in fsn1 only: without a location it lands elsewhere.
	res, _, err := c.Server.Create(ctx(t), createOpts("placed", "cx32", "ubuntu-24.04", ""))
	if err != nil || res.Server.Location.Name != "nbg1" {
		t.Fatalf("cx32 without location: %v %v", res.Server, err)
	}

	_, _, err = c.Server.Create(ctx(t), createOpts("placed", "cx22", "ubuntu-24.04", ""))
	if !hcloud.IsError(err, hcloud.ErrorCodeUniquenessError) {
		t.Fatalf("duplicate name: %v, want uniqueness_error", err)
	}
	var apiErr hcloud.Error
	if !errors.As(err, &apiErr) || apiErr.Response().StatusCode != http.StatusConflict {
		t.Errorf("duplicate name: want a 409 API error, got %v", err)
	}

	other, _, err := c.Server.Create(ctx(t), createOpts("other", "cx22", "ubuntu-24.04", ""))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Server.Update(ctx(t), other.Server, hcloud.ServerUpdateOpts{Name: "placed"}); !hcloud.IsError(err, hcloud.ErrorCodeUniquenessError) {
		t.Errorf("rename onto a taken name: %v", err)
	}
}

func TestRawErrorShapes(t *testing.T) {
	_, _, endpoint := start(t, emulator.Options{})
	for _, tc := range []struct {
		method, path, body string
		status             int
		code               string
		field              string
	}{
		{"POST", "/servers", `{"name":`, 400, "json_error", ""},
		{"POST", "/servers", `{}`, 422, "invalid_input", "server_type"},
		{"GET", "/servers/42", "", 404, "not_found", ""},
		{"GET", "/servers/abc", "", 404, "not_found", ""},
		{"PATCH", "/servers/42", "", 405, "method_not_allowed", ""},
		{"GET", "/volumes", "", 404, "not_found", ""},
		{"GET", "/actions", "", 410, "deprecated_api_endpoint", ""},
		{"GET", "/servers?per_page=x", "", 422, "invalid_input", "per_page"},
	} {
		req, _ := http.NewRequest(tc.method, endpoint+tc.path, strings.NewReader(tc.body))
		req.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var body struct {
			Error struct {
				Code    string
				Message string
				Details *struct {
					Fields []struct{ Name string }
				}
			}
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatalf("%s %s: %q: %v", tc.method, tc.path, raw, err)
		}
		if resp.StatusCode != tc.status || body.Error.Code != tc.code || body.Error.Details == nil || body.Error.Message == "" {
			t.Errorf("%s %s: %d %s", tc.method, tc.path, resp.StatusCode, raw)
		}
		if tc.field != "" && (len(body.Error.Details.Fields) == 0 || !strings.Contains(string(raw), `"name":"`+tc.field+`"`)) {
			t.Errorf("%s %s: no details.fields entry for %s in %s", tc.method, tc.path, tc.field, raw)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: content type %q", tc.method, tc.path, ct)
		}
	}
}

func TestFailNextServiceUnavailable(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	id := e.AddServer(emulator.Server{Name: "flaky"})
	e.FailNext("GET", "/servers/{id}", 1, http.StatusServiceUnavailable, "unavailable")
	if _, _, err := c.Server.GetByID(ctx(t), id); !hcloud.IsError(err, hcloud.ErrorCode("unavailable")) {
		t.Fatalf("first read: %v, want unavailable", err)
	}
	if s, _, err := c.Server.GetByID(ctx(t), id); err != nil || s == nil {
		t.Fatalf("second read: %v %v", s, err)
	}
}

func TestRateLimitWithHeaders(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	e.SetRateLimit(2, time.Hour)
	_, resp, err := c.Server.List(ctx(t), hcloud.ServerListOpts{})
	if err != nil {
		t.Fatal(err)
	}
	if r := resp.Meta.Ratelimit; r.Limit != 2 || r.Remaining != 1 || !r.Reset.After(time.Now()) {
		t.Errorf("rate limit meta %+v", r)
	}
	if _, _, err := c.Server.List(ctx(t), hcloud.ServerListOpts{}); err != nil {
		t.Fatal(err)
	}
	_, resp, err = c.Server.List(ctx(t), hcloud.ServerListOpts{})
	if !hcloud.IsError(err, hcloud.ErrorCodeRateLimitExceeded) || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("third call: %v", err)
	}
	if resp.Meta.Ratelimit.Remaining != 0 || resp.Meta.Ratelimit.Limit != 2 {
		t.Errorf("429 meta %+v", resp.Meta.Ratelimit)
	}

	// A 429 from FailNext looks the same to the client.
	e.SetRateLimit(0, 0)
	e.FailNext("GET", "/servers", 1, http.StatusTooManyRequests, "")
	if _, _, err := c.Server.List(ctx(t), hcloud.ServerListOpts{}); !hcloud.IsError(err, hcloud.ErrorCodeRateLimitExceeded) {
		t.Errorf("scripted 429: %v", err)
	}
}

func TestDropNextCommitsCreate(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	e.DropNext("POST", "/servers", 1)
	_, _, err := c.Server.Create(ctx(t), createOpts("lost-answer", "cx22", "ubuntu-24.04", ""))
	if err == nil {
		t.Fatal("the client got an answer to a dropped call")
	}
	var apiErr hcloud.Error
	if errors.As(err, &apiErr) {
		t.Fatalf("a dropped call must look like a transport error, got API error %v", err)
	}
	s, _, err := c.Server.GetByName(ctx(t), "lost-answer")
	if err != nil || s == nil {
		t.Fatalf("the create was not committed: %v %v", s, err)
	}
	if _, _, err := c.Server.Create(ctx(t), createOpts("lost-answer", "cx22", "ubuntu-24.04", "")); !hcloud.IsError(err, hcloud.ErrorCodeUniquenessError) {
		t.Errorf("retrying the create: %v, want uniqueness_error", err)
	}
}

func TestLatencyAndControlRoutes(t *testing.T) {
	e, c, endpoint := start(t, emulator.Options{Latency: 5 * time.Millisecond})
	began := time.Now()
	if _, _, err := c.Server.List(ctx(t), hcloud.ServerListOpts{}); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took < 5*time.Millisecond {
		t.Errorf("call took %v with 5ms latency", took)
	}
	e.SetLatency(0)

	root := strings.TrimSuffix(endpoint, emulator.BasePath)
	resp, err := http.Post(root+"/_emulator/faults", "application/json",
		strings.NewReader(`{"rules":[{"method":"GET","path":"/servers","count":1,"status":504}]}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST faults: %v %v", resp, err)
	}
	resp.Body.Close()
	if _, _, err := c.Server.List(ctx(t), hcloud.ServerListOpts{}); !hcloud.IsError(err, hcloud.ErrorCodeTimeout) {
		t.Errorf("scripted 504: %v", err)
	}
	resp, err = http.Get(root + "/_emulator/stats")
	if err != nil {
		t.Fatal(err)
	}
	var stats map[string]int
	if err := json.NewDecoder(resp.Body).Decode(&stats); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if stats["GET /servers"] != 2 || len(stats) != 1 {
		t.Errorf("stats %v", stats)
	}
}

// TestFaultRuleOnNoRouteIsRefused: a rule whose path is no route of the
// API (a typo) would never fire, so the control API refuses it; routes,
// templates and prefixes of real routes pass.
func TestFaultRuleOnNoRouteIsRefused(t *testing.T) {
	_, _, endpoint := start(t, emulator.Options{})
	root := strings.TrimSuffix(endpoint, emulator.BasePath)
	for rule, want := range map[string]int{
		`{"method":"GET","path":"/nonexistent/route","status":500}`: http.StatusBadRequest,
		`{"method":"GET","path":"/server","status":500}`:            http.StatusBadRequest,
		`{"method":"GET","path":"/servers","status":500}`:           http.StatusOK,
		`{"method":"GET","path":"/v1/servers/{id}","status":500}`:   http.StatusOK,
		`{"method":"POST","path":"/servers/*","status":500}`:        http.StatusOK,
		`{"path":"/servers*","status":500}`:                         http.StatusOK,
	} {
		resp, err := http.Post(root+"/_emulator/faults", "application/json", strings.NewReader(`{"rules":[`+rule+`]}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || (want == http.StatusBadRequest && !strings.Contains(string(body), "matches no route")) {
			t.Errorf("rule %s: %d %s, want %d", rule, resp.StatusCode, body, want)
		}
	}
}
