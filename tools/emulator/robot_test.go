package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestRunServesRobot: the robot line names the webservice behind the
// -robot-user's credentials, with -robot-servers servers whose addresses
// are the SSH farm's, and its control API under /_emulator/robot.
func TestRunServesRobot(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-robot-user", "u1", "-robot-password", "p1", "-robot-servers", "3"}, w)
		w.Close()
	}()
	lines := map[string]string{}
	br := bufio.NewReader(r)
	for range 3 {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		name, value, _ := strings.Cut(strings.TrimSpace(line), " ")
		lines[name] = value
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	endpoint := lines["robot"]
	if !strings.HasPrefix(endpoint, "http://127.0.0.1:") || !strings.HasSuffix(endpoint, "/robot") {
		t.Fatalf("printed %v, want \"robot http://127.0.0.1:PORT/robot\"", lines)
	}
	if port, err := strconv.Atoi(lines["robot-ssh"]); err != nil || port <= 0 {
		t.Fatalf("robot-ssh %q", lines["robot-ssh"])
	}
	get := func(url, user, password string) (int, []byte) {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		if user != "" {
			req.SetBasicAuth(user, password)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	if status, _ := get(endpoint+"/server", "u1", "wrong"); status != http.StatusUnauthorized {
		t.Errorf("wrong password: %d", status)
	}
	status, body := get(endpoint+"/server", "u1", "p1")
	var servers []struct {
		Server struct {
			ServerIP string `json:"server_ip"`
		} `json:"server"`
	}
	if err := json.Unmarshal(body, &servers); status != 200 || err != nil || len(servers) != 3 || !strings.HasPrefix(servers[0].Server.ServerIP, "127.") {
		t.Fatalf("GET /server: %d %s", status, body)
	}
	root := strings.TrimSuffix(endpoint, "/robot")
	status, body = get(root+"/_emulator/robot/stats", "", "")
	if status != 200 || !strings.Contains(string(body), `"GET /server":2`) {
		t.Errorf("robot stats: %d %s", status, body)
	}
	if _, body = get(root+"/_emulator/stats", "", ""); strings.Contains(string(body), "GET /server\"") {
		t.Errorf("hcloud stats count Robot's requests: %s", body)
	}
	stopped(t, cancel, done)
}
