package proxmox_test

import (
	"context"
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

func eth0IPv4(t *testing.T, data any) string {
	t.Helper()
	for _, ifc := range data.(map[string]any)["result"].([]any) {
		m := ifc.(map[string]any)
		if m["name"] != "eth0" {
			continue
		}
		for _, a := range m["ip-addresses"].([]any) {
			if a := a.(map[string]any); a["ip-address-type"] == "ipv4" {
				return a["ip-address"].(string)
			}
		}
	}
	t.Fatalf("no eth0 IPv4 in %v", data)
	return ""
}

func TestAgentAnswersAfterBoot(t *testing.T) {
	clock := newFakeClock()
	h := start(t, proxmox.Options{BootDuration: 300 * time.Millisecond, Clock: clock})
	if _, err := h.e.AddVM(proxmox.VMSeed{Name: "a"}); err != nil {
		t.Fatal(err)
	}
	const path = "/nodes/pve1/qemu/100/agent/network-get-interfaces"
	expectError(t, h.call("GET", path), 500, "VM 100 is not running")
	h.mustTask("POST", "/nodes/pve1/qemu/100/status/start")
	clock.Advance(299 * time.Millisecond)
	expectError(t, h.call("GET", path), 500, "QEMU guest agent is not running")
	clock.Advance(time.Millisecond)
	if ip := eth0IPv4(t, h.ok("GET", path)); ip != "192.0.2.1" {
		t.Fatalf("eth0 %s, want 192.0.2.1", ip)
	}
}

func TestAgentFaults(t *testing.T) {
	h := start(t, proxmox.Options{BootDuration: time.Nanosecond})
	if _, err := h.e.AddVM(proxmox.VMSeed{Name: "a", Running: true}); err != nil {
		t.Fatal(err)
	}
	const path = "/nodes/pve1/qemu/100/agent/network-get-interfaces"
	h.ok("GET", path)
	if err := h.e.SetAgentFault(100, proxmox.AgentNotRunning); err != nil {
		t.Fatal(err)
	}
	expectError(t, h.call("GET", path), 500, "QEMU guest agent is not running")
	if err := h.e.SetAgentFault(0, proxmox.AgentHangs); err != nil {
		t.Fatal(err)
	}
	if err := h.e.SetAgentFault(100, proxmox.AgentAnswers); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := h.do(ctx, "GET", path, url.Values{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hung agent answered: %v", err)
	}
	h.e.Conformance().Clear()
	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Minute)
	defer cancel2()
	if a, err := h.do(ctx2, "GET", path, url.Values{}); err != nil || a.status != 200 {
		t.Fatalf("agent after Clear: %v %v", a, err)
	}
	h.ok("PUT", "/nodes/pve1/qemu/100/config", "delete", "agent")
	expectError(t, h.call("GET", path), 500, "No QEMU guest agent configured")
}

func TestPowerActions(t *testing.T) {
	h := start(t, proxmox.Options{})
	if _, err := h.e.AddVM(proxmox.VMSeed{Name: "a"}); err != nil {
		t.Fatal(err)
	}
	const vm = "/nodes/pve1/qemu/100"
	for _, a := range []string{"shutdown", "reboot", "reset"} {
		expectError(t, h.call("POST", vm+"/status/"+a), 500, "VM 100 not running")
	}
	h.mustTask("POST", vm+"/status/start")
	if _, exit := h.task("POST", vm+"/status/start"); exit != "VM 100 already running" {
		t.Fatalf("second start ended %q", exit)
	}
	h.mustTask("POST", vm+"/status/reboot")
	h.mustTask("POST", vm+"/status/reset")
	h.mustTask("POST", vm+"/status/shutdown")
	if st := h.ok("GET", vm+"/status/current").(map[string]any); st["status"] != "stopped" {
		t.Fatalf("after shutdown: %v", st["status"])
	}
	expectError(t, h.call("POST", "/nodes/pve1/qemu/9000/status/start"), 500, "you can't start a vm if it's a template")
}

func TestOfflineNode(t *testing.T) {
	h := start(t, proxmox.Options{})
	if _, err := h.e.AddVM(proxmox.VMSeed{Name: "a", Node: "pve2"}); err != nil {
		t.Fatal(err)
	}
	if err := h.e.SetNodeOnline("pve2", false); err != nil {
		t.Fatal(err)
	}
	expectError(t, h.call("GET", "/nodes/pve2/qemu/100/status/current"), 595, "No route to host")
	for _, r := range h.ok("GET", "/cluster/resources", "type", "vm").([]any) {
		if r := r.(map[string]any); r["vmid"] == float64(100) && r["status"] != "unknown" {
			t.Fatalf("VM on an offline node listed %v", r["status"])
		}
	}
}
