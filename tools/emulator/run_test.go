package main

import (
	"bufio"
	"context"
	"encoding/json"
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
	reqCtx, reqCancel := context.WithTimeout(ctx, 10*time.Second)
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

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run returned %v after cancel", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop after cancel")
	}
	if _, err := http.Get(root + "/_emulator/stats"); err == nil {
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

	reqCtx, reqCancel := context.WithTimeout(ctx, 10*time.Second)
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
