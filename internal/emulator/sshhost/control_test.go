package sshhost

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestFarmAddressesShareAPortInOneSlash24(t *testing.T) {
	h := newHarness(t, Options{})
	a, b := h.add(1), h.add(2)
	if a.Addr() == b.Addr() || !a.Addr().IsLoopback() {
		t.Fatalf("addresses %s %s", a.Addr(), b.Addr())
	}
	pa, pb := a.Addr().As4(), b.Addr().As4()
	if pa[0] != 127 || pa[1] != pb[1] || pa[2] != pb[2] || pa[1] == 0 {
		t.Fatalf("addresses %s %s are not in one /24 outside 127.0/16", a.Addr(), b.Addr())
	}
	if !strings.HasSuffix(a.SSHAddr(), ":"+strconv.Itoa(h.farm.SSHPort())) || h.farm.SSHPort() == 0 {
		t.Fatalf("ssh address %s, port %d", a.SSHAddr(), h.farm.SSHPort())
	}
	if _, err := h.farm.Add(1, a.spec); err == nil {
		t.Fatal("machine 1 was added twice")
	}
}

func TestControlHandler(t *testing.T) {
	h, m, c := rescueClient(t)
	run(t, c, "hostname", "")
	srv := httptest.NewServer(h.farm.Handler())
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/_emulator/ssh/machines/1/faults", "application/json",
		strings.NewReader(`{"fail_install":"boom","hang_install":true,"ignore_soft_reset":true,"fail_first_boot":true,"drop_sessions_after":3}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST faults: %v %v", err, resp.Status)
	}
	resp.Body.Close()
	m.mu.Lock()
	got := m.faults
	drop := m.dropAfter
	m.mu.Unlock()
	if got != (faults{failInstall: "boom", hangInstall: true, ignoreSoftReset: true, failFirstBoot: true}) || drop != 3 {
		t.Fatalf("faults = %+v, drop %d", got, drop)
	}
	resp, err = http.Post(srv.URL+"/_emulator/ssh/machines/1/faults", "application/json", strings.NewReader(`{"fail_instal":"x"}`))
	if err != nil || resp.StatusCode != 400 {
		t.Fatalf("a misspelt fault: %v %v", err, resp.Status)
	}
	resp.Body.Close()
	req, _ := http.NewRequest(http.MethodDelete, srv.URL+"/_emulator/ssh/machines/1/faults", nil)
	if resp, err = http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("DELETE faults: %v", err)
	}
	resp.Body.Close()
	if m.faults != (faults{}) {
		t.Fatalf("faults after DELETE: %+v", m.faults)
	}

	var cmds []Command
	getJSON(t, srv.URL+"/_emulator/ssh/commands?machine=1", &cmds)
	if len(cmds) != 1 || cmds[0].Line != "hostname" || cmds[0].System != "rescue" || cmds[0].Exit != 0 {
		t.Fatalf("commands = %+v", cmds)
	}
	var ms []MachineStatus
	getJSON(t, srv.URL+"/_emulator/ssh/machines", &ms)
	if len(ms) != 1 || ms[0].Booted != "rescue" || !ms[0].Armed || ms[0].Address != m.Addr().String() {
		t.Fatalf("machines = %+v", ms)
	}
	resp, err = http.Get(srv.URL + "/_emulator/ssh/machines/9/faults")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode == 200 {
		t.Fatal("GET on the faults route")
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}
