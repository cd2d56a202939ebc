package hcloud_test

import (
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestGuestThatIgnoresACPI: shutdown and reboot succeed as actions, since
// the API only reports that the request was sent, but a guest that ignores
// ACPI neither stops nor restarts; reset and poweroff need no guest.
func TestGuestThatIgnoresACPI(t *testing.T) {
	for _, tc := range []struct {
		command  string
		ignores  bool
		after    string
		restarts int
	}{
		{"shutdown", false, "off", 0},
		{"shutdown", true, "running", 0},
		{"reboot", false, "running", 1},
		{"reboot", true, "running", 0},
		{"reset", true, "running", 1},
		{"poweroff", true, "off", 0},
	} {
		e, c, _ := start(t, emulator.Options{ActionPolls: 2})
		s := &hcloud.Server{ID: e.AddServer(emulator.Server{Name: "guest", IgnoresACPI: tc.ignores})}
		run := map[string]func() (*hcloud.Action, *hcloud.Response, error){
			"shutdown": func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Shutdown(ctx(t), s) },
			"reboot":   func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Reboot(ctx(t), s) },
			"reset":    func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Reset(ctx(t), s) },
			"poweroff": func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Poweroff(ctx(t), s) },
		}[tc.command]
		a, _, err := run()
		if err != nil {
			t.Fatalf("%s (ignores ACPI %v): %v", tc.command, tc.ignores, err)
		}
		if err := c.Action.WaitFor(ctx(t), a); err != nil {
			t.Errorf("%s (ignores ACPI %v): the action must succeed: %v", tc.command, tc.ignores, err)
		}
		got, _ := e.Server(s.ID)
		if got.Status != tc.after || got.Restarts != tc.restarts || got.IgnoresACPI != tc.ignores {
			t.Errorf("%s (ignores ACPI %v): status %s, %d restarts, snapshot ignores %v; want %s, %d",
				tc.command, tc.ignores, got.Status, got.Restarts, got.IgnoresACPI, tc.after, tc.restarts)
		}
	}
}

// TestSetIgnoresACPI switches a guest between ignoring and honouring.
func TestSetIgnoresACPI(t *testing.T) {
	e, c, _ := start(t, emulator.Options{ActionPolls: 1})
	s := &hcloud.Server{ID: e.AddServer(emulator.Server{Name: "guest"})}
	shutdown := func() string {
		t.Helper()
		a, _, err := c.Server.Shutdown(ctx(t), s)
		if err == nil {
			err = c.Action.WaitFor(ctx(t), a)
		}
		if err != nil {
			t.Fatal(err)
		}
		got, _ := e.Server(s.ID)
		return got.Status
	}
	e.SetIgnoresACPI(s.ID, true)
	if got := shutdown(); got != "running" {
		t.Errorf("a guest set to ignore ACPI is %s after a shutdown, want running", got)
	}
	e.SetIgnoresACPI(s.ID, false)
	if got := shutdown(); got != "off" {
		t.Errorf("a guest set to honour ACPI again is %s after a shutdown, want off", got)
	}
	if got, _ := e.Server(s.ID); got.Restarts != 0 {
		t.Errorf("%d restarts after two shutdowns", got.Restarts)
	}
	e.SetIgnoresACPI(999, true) // unknown ids are ignored
}

// TestResetOfAStoppedServerIsNoRestart: reset starts a server that is off,
// which is a start, not a restart of a running guest.
func TestResetOfAStoppedServerIsNoRestart(t *testing.T) {
	e, c, _ := start(t, emulator.Options{ActionPolls: 1})
	s := &hcloud.Server{ID: e.AddServer(emulator.Server{Name: "guest", Status: "off"})}
	a, _, err := c.Server.Reset(ctx(t), s)
	if err == nil {
		err = c.Action.WaitFor(ctx(t), a)
	}
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := e.Server(s.ID); got.Status != "running" || got.Restarts != 0 {
		t.Errorf("reset of an off server: %s with %d restarts, want running with 0", got.Status, got.Restarts)
	}
}
