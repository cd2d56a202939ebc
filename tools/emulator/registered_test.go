package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/standalone"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/toycloud"
)

// TestRunServesRegisteredEmulators: a registered emulator is served on the
// shared port under /NAME with its control API, and announced with the
// variables an acceptance run reaches it with, before "first-boot", which
// callers wait for as the last line.
func TestRunServesRegisteredEmulators(t *testing.T) {
	// The test's own list, not the build's: a build with the testbackends
	// tag has registered Toy Cloud already.
	saved := registered
	registered = []standalone.Registration{toycloud.Standalone}
	t.Cleanup(func() { registered = saved })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0"}, w)
		w.Close()
	}()
	lines := map[string]string{}
	for sc := bufio.NewScanner(r); sc.Scan(); {
		name, rest, _ := strings.Cut(sc.Text(), " ")
		if name == "first-boot" {
			break
		}
		lines[name] = rest
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	vars := map[string]string{}
	for _, kv := range strings.Fields(lines["toycloud-testacc"]) {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	api := lines["toycloud"]
	if !strings.HasSuffix(api, "/toycloud/v1") || vars["COMPUTE_TEST_TOYCLOUD_ENDPOINT"] != api || vars["COMPUTE_TEST_TOYCLOUD_OFFER"] != "tiny" {
		t.Fatalf("announced %q and %v, want the API under /toycloud and its variables", api, vars)
	}
	req, _ := http.NewRequest(http.MethodGet, api+"/sizes", nil)
	req.Header.Set("Authorization", "Bearer "+vars["COMPUTE_TEST_TOYCLOUD_API_KEY"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s/sizes with the announced key: %v %v", api, resp, err)
	}
	resp.Body.Close()
	resp, err = http.Get(strings.TrimSuffix(api, "/toycloud/v1") + toycloud.ControlPrefix + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	var stats map[string]int
	err = json.NewDecoder(resp.Body).Decode(&stats)
	resp.Body.Close()
	if err != nil || stats["GET /sizes"] != 1 {
		t.Errorf("control API stats %v %v, want the one GET /sizes counted", stats, err)
	}
	stopped(t, cancel, done)
}

// TestRunRefusesAnEmulatorRegisteredTwice: two registrations of one name
// (a backend's line copied into a second file) are refused by name before
// any emulator starts, not left to the mux's panic over the same pattern.
func TestRunRefusesAnEmulatorRegisteredTwice(t *testing.T) {
	saved := registered
	registered = []standalone.Registration{toycloud.Standalone, toycloud.Standalone}
	t.Cleanup(func() { registered = saved })
	_, _, err := startRegistered(config{})
	if err == nil || !strings.Contains(err.Error(), `"toycloud" registered twice`) {
		t.Fatalf("startRegistered with toycloud twice: %v, want it refused by name", err)
	}
}
