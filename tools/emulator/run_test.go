package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"
)

func TestRunServesHcloudAndControlAPI(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-token", "t0k3n", "-latency", "1ms"}, w)
		w.Close()
	}()

	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	name, endpoint, ok := strings.Cut(strings.TrimSpace(line), " ")
	if !ok || name != "hcloud" || !strings.HasPrefix(endpoint, "http://127.0.0.1:") || !strings.HasSuffix(endpoint, "/v1") {
		t.Fatalf("printed %q, want \"hcloud http://127.0.0.1:PORT/v1\"", line)
	}

	c := hcloud.NewClient(hcloud.WithEndpoint(endpoint), hcloud.WithToken("t0k3n"),
		hcloud.WithPollOpts(hcloud.PollOpts{BackoffFunc: hcloud.ConstantBackoff(time.Millisecond)}))
	reqCtx, reqCancel := context.WithTimeout(ctx, time.Minute)
	defer reqCancel()
	res, _, err := c.Server.Create(reqCtx, hcloud.ServerCreateOpts{
		Name: "demo", ServerType: &hcloud.ServerType{Name: "cx22"}, Image: &hcloud.Image{Name: "ubuntu-24.04"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Action.WaitFor(reqCtx, append([]*hcloud.Action{res.Action}, res.NextActions...)...); err != nil {
		t.Fatal(err)
	}
	types, err := c.ServerType.All(reqCtx)
	if err != nil || len(types) == 0 {
		t.Fatalf("server types: %v %v", types, err)
	}

	root := strings.TrimSuffix(endpoint, "/v1")
	resp, err := http.Get(root + "/_emulator/stats")
	if err != nil {
		t.Fatal(err)
	}
	var stats map[string]int
	err = json.NewDecoder(resp.Body).Decode(&stats)
	resp.Body.Close()
	if err != nil || stats["POST /servers"] != 1 || stats["GET /server_types"] != 1 {
		t.Errorf("stats %v %v", stats, err)
	}

	stopped(t, cancel, done)
	if resp, err := http.Get(root + "/_emulator/stats"); err == nil {
		_ = resp.Body.Close()
		t.Error("still serving after shutdown")
	}
}

func TestRunRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:8080", ":8080", "192.0.2.10:80", "[::]:80", "example.com:80", "nonsense"} {
		err := run(context.Background(), []string{"-listen", addr}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), addr) {
			t.Errorf("-listen %s: %v, want a refusal naming the address", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0", "localhost:0", "127.1.2.3:0"} {
		if err := checkLoopback(addr); err != nil {
			t.Errorf("-listen %s refused: %v", addr, err)
		}
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	if err := run(context.Background(), []string{"-latency", "soon"}, io.Discard); err == nil {
		t.Error("bad duration accepted")
	}
	if err := run(context.Background(), []string{"extra"}, io.Discard); err == nil {
		t.Error("stray argument accepted")
	}
}

func TestRunReadOnlyTokenMayOnlyRead(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-token", "rw", "-read-only-token", "ro"}, w)
		w.Close()
	}()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	_, endpoint, _ := strings.Cut(strings.TrimSpace(line), " ")

	reqCtx, reqCancel := context.WithTimeout(ctx, time.Minute)
	defer reqCancel()
	ro := hcloud.NewClient(hcloud.WithEndpoint(endpoint), hcloud.WithToken("ro"), hcloud.WithRetryOpts(hcloud.RetryOpts{MaxRetries: 0}))
	if _, err := ro.ServerType.All(reqCtx); err != nil {
		t.Errorf("read with the read-only token: %v", err)
	}
	_, _, err = ro.Server.Create(reqCtx, hcloud.ServerCreateOpts{
		Name: "demo", ServerType: &hcloud.ServerType{Name: "cx22"}, Image: &hcloud.Image{Name: "ubuntu-24.04"},
	})
	if !hcloud.IsError(err, hcloud.ErrorCodeForbidden) {
		t.Errorf("create with the read-only token: %v, want forbidden", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}

// startRun runs the command with args and returns its hcloud endpoint; it
// stops with the test.
func startRun(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, w)
		w.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	_, endpoint, _ := strings.Cut(strings.TrimSpace(line), " ")
	return endpoint
}

// actionStatus reads one action once, which counts as one poll of it.
func actionStatus(t *testing.T, c *hcloud.Client, id int64) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, _, err := c.Action.GetByID(ctx, id)
	if err != nil || a == nil {
		t.Fatalf("action %d: %v %v", id, a, err)
	}
	return string(a.Status)
}

func createDemo(t *testing.T, c *hcloud.Client) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, _, err := c.Server.Create(ctx, hcloud.ServerCreateOpts{
		Name: "demo", ServerType: &hcloud.ServerType{Name: "cx22"}, Image: &hcloud.Image{Name: "ubuntu-24.04"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.Action.ID
}

// -action-duration keeps every action running, however often it is read,
// until its time is up; the control API changes the pace of a running
// emulator, for the actions already running too.
func TestRunActionDuration(t *testing.T) {
	endpoint := startRun(t, "-token", "t", "-action-duration", "1h")
	c := hcloud.NewClient(hcloud.WithEndpoint(endpoint), hcloud.WithToken("t"), hcloud.WithRetryOpts(hcloud.RetryOpts{MaxRetries: 0}))
	id := createDemo(t, c)
	for range 3 {
		if s := actionStatus(t, c, id); s != "running" {
			t.Fatalf("the create's action is %s at once, want running for an hour", s)
		}
	}

	control := strings.TrimSuffix(endpoint, "/v1") + "/_emulator/actions"
	post := func(body string) (int, string) {
		resp, err := http.Post(control, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post(`{"duration":"1h","poll":2}`); code != http.StatusBadRequest || !strings.Contains(body, "poll") {
		t.Errorf("a misspelt field: %d %s, want 400 naming it", code, body)
	}
	if code, body := post(`{"duration":"0s","polls":5}`); code != http.StatusOK || !strings.Contains(body, `"polls":5`) {
		t.Fatalf("POST /_emulator/actions: %d %s", code, body)
	}
	// Polls count from the action's start: read three times already, the
	// running action ends at its fifth.
	if s := actionStatus(t, c, id); s != "running" {
		t.Errorf("fourth poll: %s, want running", s)
	}
	if s := actionStatus(t, c, id); s != "success" {
		t.Errorf("fifth poll: %s, want success", s)
	}
}

// -action-polls ends each action at its Nth poll.
func TestRunActionPolls(t *testing.T) {
	endpoint := startRun(t, "-token", "t", "-action-polls", "3")
	c := hcloud.NewClient(hcloud.WithEndpoint(endpoint), hcloud.WithToken("t"), hcloud.WithRetryOpts(hcloud.RetryOpts{MaxRetries: 0}))
	id := createDemo(t, c)
	var seen []string
	for range 3 {
		seen = append(seen, actionStatus(t, c, id))
	}
	if want := "running running success"; strings.Join(seen, " ") != want {
		t.Errorf("polls saw %v, want %s", seen, want)
	}
}

// -h names every flag and the control API, which is how a user of the
// standalone emulator learns to script faults and slow actions.
func TestRunHelpNamesTheControlAPI(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), []string{"-h"}, &out); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	for _, want := range []string{"-action-duration", "-action-polls", "-latency", "-read-only-token",
		"GET    /_emulator/stats", "POST   /_emulator/faults", "delay_if_connected", "POST   /_emulator/actions"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunRejectsBadActionPace(t *testing.T) {
	for _, args := range [][]string{{"-action-duration", "-1s"}, {"-action-polls", "0"}} {
		if err := run(context.Background(), args, io.Discard); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: %v, want a refusal naming the flag", args, err)
		}
	}
}

// stopped cancels a run and checks that it returns without error.
func stopped(t *testing.T, cancel context.CancelFunc, done <-chan error) {
	t.Helper()
	cancel()
	if err := within(t, "run's return after cancel", done); err != nil {
		t.Errorf("run returned %v after cancel", err)
	}
}

// within waits for ch for as long as the test may run: until shortly before
// go test's -timeout ends the binary, so that a hang fails naming what did not
// happen, and never sooner, however busy the machine is.
func within[T any](t *testing.T, what string, ch <-chan T) T {
	t.Helper()
	var expired <-chan time.Time
	if deadline, ok := t.Deadline(); ok {
		left := time.Until(deadline)
		timer := time.NewTimer(left - left/20)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case v := <-ch:
		return v
	case <-expired:
		t.Fatalf("%s did not happen before the test's deadline", what)
		panic("unreachable")
	}
}
