package hcloud_test

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// The tests below pin answers where the API description (or the API's
// changelog, for what the description only hints at) says more than the
// happy path.

func TestActionsListWithoutIDsIsRemoved(t *testing.T) {
	_, c, _ := start(t, emulator.Options{})
	_, resp, err := c.Action.List(ctx(t), hcloud.ActionListOpts{})
	if !hcloud.IsError(err, hcloud.ErrorDeprecatedAPIEndpoint) || resp == nil || resp.StatusCode != http.StatusGone {
		t.Fatalf("GET /actions without id: %v, want 410 deprecated_api_endpoint", err)
	}
	var apiErr hcloud.Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("not an API error: %v", err)
	}
	if d, ok := apiErr.Details.(hcloud.ErrorDetailsDeprecatedAPIEndpoint); !ok || !strings.HasPrefix(d.Announcement, "https://docs.hetzner.cloud/changelog#") {
		t.Errorf("details %#v, want the announcement", apiErr.Details)
	}
}

func TestSortKeysFollowTheSpec(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	images, _, err := c.Image.List(ctx(t), hcloud.ImageListOpts{Sort: []string{"created:desc"}, IncludeDeprecated: true})
	if err != nil || len(images) < 2 {
		t.Fatalf("images by created: %d, %v", len(images), err)
	}
	if !slices.IsSortedFunc(images, func(a, b *hcloud.Image) int { return b.Created.Compare(a.Created) }) {
		t.Errorf("images not newest first")
	}
	// Server actions sort by id, command, status, started and finished only.
	e.AddServer(emulator.Server{Name: "sorted"})
	if _, _, err := c.Server.Action.List(ctx(t), hcloud.ActionListOpts{Sort: []string{"progress"}}); !hcloud.IsError(err, hcloud.ErrorCodeInvalidInput) {
		t.Errorf("sort=progress: %v, want invalid_input", err)
	}
	if _, _, err := c.Server.Action.List(ctx(t), hcloud.ActionListOpts{Sort: []string{"finished:desc", "started"}}); err != nil {
		t.Errorf("sort=finished:desc&sort=started: %v", err)
	}
}

// TestPowerActionsByStatus runs each power action on a server in each
// resting status. Actions need two polls, so the test sees the server
// while the action runs.
func TestPowerActionsByStatus(t *testing.T) {
	for _, tc := range []struct {
		from, command, during, after string
	}{
		{"running", "poweron", "running", "running"},
		{"off", "poweron", "starting", "running"},
		{"running", "poweroff", "stopping", "off"},
		{"off", "poweroff", "off", "off"},
		{"running", "shutdown", "stopping", "off"},
		{"running", "reboot", "running", "running"},
		{"off", "reboot", "off", "off"},
		{"running", "reset", "running", "running"},
		{"off", "reset", "off", "running"},
	} {
		e, c, _ := start(t, emulator.Options{ActionPolls: 2})
		s := &hcloud.Server{ID: e.AddServer(emulator.Server{Name: "power", Status: tc.from})}
		run := map[string]func() (*hcloud.Action, *hcloud.Response, error){
			"poweron":  func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Poweron(ctx(t), s) },
			"poweroff": func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Poweroff(ctx(t), s) },
			"shutdown": func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Shutdown(ctx(t), s) },
			"reboot":   func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Reboot(ctx(t), s) },
			"reset":    func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Reset(ctx(t), s) },
		}[tc.command]
		a, resp, err := run()
		if err != nil || resp.StatusCode != http.StatusCreated || a.Status != hcloud.ActionStatusRunning {
			t.Fatalf("%s on %s: %v %v", tc.command, tc.from, a, err)
		}
		if _, _, err := run(); !hcloud.IsError(err, hcloud.ErrorCodeLocked) {
			t.Errorf("%s on %s while the first runs: %v, want locked", tc.command, tc.from, err)
		}
		mid, _, err := c.Server.GetByID(ctx(t), s.ID)
		if err != nil || string(mid.Status) != tc.during || !mid.Locked {
			t.Errorf("%s on %s: %s (locked %v) while the action runs, want %s: %v", tc.command, tc.from, mid.Status, mid.Locked, tc.during, err)
		}
		if err := c.Action.WaitFor(ctx(t), a); err != nil {
			t.Fatal(err)
		}
		if got, _ := e.Server(s.ID); got.Status != tc.after {
			t.Errorf("%s on %s: %s afterwards, want %s", tc.command, tc.from, got.Status, tc.after)
		}
	}
}

// TestCommitThenDelayMakesHcloudGoResendACommittedCreate shows why the
// fault exists: hcloud-go retries a call that hit its HTTP client's
// timeout, even a POST, so a create that was committed but answered late
// is sent twice and the second meets the first's name.
func TestCommitThenDelayMakesHcloudGoResendACommittedCreate(t *testing.T) {
	e, _, endpoint := start(t, emulator.Options{})
	c := hcloud.NewClient(
		hcloud.WithEndpoint(endpoint),
		hcloud.WithToken(testToken),
		hcloud.WithHTTPClient(&http.Client{Timeout: 100 * time.Millisecond}),
		hcloud.WithRetryOpts(hcloud.RetryOpts{BackoffFunc: hcloud.ConstantBackoff(time.Millisecond), MaxRetries: 1}),
	)
	// The client's going away ends the hold, so the hour is never waited.
	e.CommitThenDelayNext("POST", "/servers", 1, time.Hour)
	_, _, err := c.Server.Create(ctx(t), createOpts("late", "cx22", "ubuntu-24.04", ""))
	if !hcloud.IsError(err, hcloud.ErrorCodeUniquenessError) {
		t.Fatalf("create answered late: %v, want the resent create's uniqueness_error", err)
	}
	if n := e.Stats()["POST /servers"]; n != 2 || len(e.Servers()) != 1 {
		t.Errorf("%d POSTs, %d servers; want 2 POSTs and 1 server", n, len(e.Servers()))
	}

	// A patient client gets the held answer intact.
	id := e.Servers()[0].ID
	e.CommitThenDelayNext("GET", "/servers/{id}", 1, 5*time.Millisecond)
	s, _, err := newClient(endpoint, testToken).Server.GetByID(ctx(t), id)
	if err != nil || s == nil || s.Name != "late" {
		t.Fatalf("held read: %v %v", s, err)
	}
}

func TestMaxPageSizeThroughTheControlAPI(t *testing.T) {
	e, c, endpoint := start(t, emulator.Options{})
	for _, name := range []string{"p1", "p2", "p3", "p4", "p5"} {
		e.AddServer(emulator.Server{Name: name})
	}
	root := strings.TrimSuffix(endpoint, emulator.BasePath)
	control := func(method, body string) {
		t.Helper()
		req, _ := http.NewRequest(method, root+"/_emulator/faults", strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			t.Fatalf("%s /_emulator/faults %s: %d", method, body, resp.StatusCode)
		}
	}
	pages := func() int {
		t.Helper()
		e.ResetStats()
		all, err := c.Server.All(ctx(t))
		if err != nil || len(all) != 5 {
			t.Fatalf("All: %d, %v", len(all), err)
		}
		return e.Stats()["GET /servers"]
	}

	control("POST", `{"max_page_size":2}`)
	if n := pages(); n != 3 {
		t.Errorf("5 servers in pages of 2 took %d requests, want 3", n)
	}
	// A larger request is cut to the limit, and meta says so.
	_, resp, err := c.Server.List(ctx(t), hcloud.ServerListOpts{ListOpts: hcloud.ListOpts{PerPage: 50}})
	if err != nil || resp.Meta.Pagination.PerPage != 2 || resp.Meta.Pagination.LastPage != 3 {
		t.Errorf("per_page=50 under a limit of 2: %+v %v", resp.Meta.Pagination, err)
	}
	control("DELETE", "")
	if n := pages(); n != 1 {
		t.Errorf("after clearing the faults All took %d requests, want 1", n)
	}
}

// TestListingsAndUpdatesRefuseWhatTheAPIRefuses: the refusals the listings
// and the updates of servers and SSH keys share (an unknown status, a
// label the API does not allow) answer invalid_input on the field for
// each of them, before anything is listed or written.
func TestListingsAndUpdatesRefuseWhatTheAPIRefuses(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	id := e.AddServer(emulator.Server{Name: "kept", Labels: map[string]string{"team": "ops"}})
	srv := &hcloud.Server{ID: id}
	key, _, err := c.SSHKey.Create(ctx(t), hcloud.SSHKeyCreateOpts{Name: "deploy", PublicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJ3mDIsdtWOFgRdA2wK0wsXxJCEMAdD3mEmxoMrhWc0 test@example"})
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{"hetzner.cloud/x": "y"}
	for _, tc := range []struct {
		name, says string
		call       func() error
	}{
		{"servers by an unknown status", "status", func() error {
			_, err := c.Server.AllWithOpts(ctx(t), hcloud.ServerListOpts{Status: []hcloud.ServerStatus{"asleep"}})
			return err
		}},
		{"actions by an unknown status", "status", func() error {
			_, err := c.Server.Action.All(ctx(t), hcloud.ActionListOpts{Status: []hcloud.ActionStatus{"asleep"}})
			return err
		}},
		{"a server updated with a reserved label", "reserved prefix", func() error {
			_, _, err := c.Server.Update(ctx(t), srv, hcloud.ServerUpdateOpts{Labels: bad})
			return err
		}},
		{"an SSH key updated with a reserved label", "reserved prefix", func() error {
			_, _, err := c.SSHKey.Update(ctx(t), key, hcloud.SSHKeyUpdateOpts{Labels: bad})
			return err
		}},
	} {
		err := tc.call()
		if !hcloud.IsError(err, hcloud.ErrorCodeInvalidInput) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want invalid_input saying %q", tc.name, err, tc.says)
		}
	}
	if got, _, err := c.Server.GetByID(ctx(t), id); err != nil || got.Labels["team"] != "ops" {
		t.Errorf("the refused update wrote the server: %v, %v", got, err)
	}
}
