package reliability_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	hcloudemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// The three worlds are the acceptance harness's own (acctest.NewEmulator,
// NewMetal, NewProxmox), seen through the emulators' conformance hooks,
// which speak one vocabulary of faults on every backend.

// conformance is what every emulator's conformance hooks offer.
type conformance interface {
	FailNext(op, class string, n int) error
	Revoke() error
	Clear()
}

// hooks is the part of world that every emulator implements alike.
type hooks struct {
	c     conformance
	rules func() []faults.Rule
}

func (h hooks) inject(op, class string, n int) error { return h.c.FailNext(op, class, n) }
func (h hooks) revoke() error                        { return h.c.Revoke() }
func (h hooks) clear()                               { h.c.Clear() }

// unmet lists the counted rules no request used up.
func (h hooks) unmet() []string {
	var out []string
	for _, r := range h.rules() {
		if r.Count > 0 {
			out = append(out, fmt.Sprintf("%s %s ×%d", r.Method, r.Path, r.Count))
		}
	}
	return out
}

var hcloudBackend = &backend{name: "hcloud", title: "Hetzner Cloud", powerBase: `power = "on"`, powerOp: `power = "off"`, newWorld: func(t *testing.T) (world, machine) {
	e := acctest.NewEmulator(t)
	id := e.AddServer(hcloudemu.Server{Name: foreignName})
	return hcloudWorld{hooks: hooks{c: e.Conformance(), rules: e.Faults().Rules}, e: e}, machine{strconv.FormatInt(id, 10), foreignName}
}}

type hcloudWorld struct {
	hooks
	e *acctest.Emulator
}

func (hcloudWorld) provider() string { return "" }
func (w hcloudWorld) account(name string) string {
	return w.e.AccountNamed(name, "env://"+acctest.HetznerCloudTokenEnv)
}
func (hcloudWorld) instance(res, acct, name string, extra ...string) string {
	return acctest.InstanceBlock{Resource: res, Account: acct, Name: name, Offer: "cx22", Image: "ubuntu-24.04"}.HCL(extra...)
}

func (w hcloudWorld) look(id string) string {
	for _, s := range w.e.Live() {
		if strconv.FormatInt(s.ID, 10) == id {
			return fmt.Sprintf("status %s, labels %v, type %s, image %s, restarts %d", s.Status, s.Labels, s.ServerType, s.Image, s.Restarts)
		}
	}
	return "gone"
}

func (w hcloudWorld) machines() []machine {
	var out []machine
	for _, s := range w.e.Live() {
		out = append(out, machine{strconv.FormatInt(s.ID, 10), s.Name})
	}
	return out
}

// Robot cannot tell whether a server is off, so it is not switched off:
// its power step is a restart, a reset through the same route.
var robotBackend = &backend{name: "robot", title: "Hetzner Robot", powerBase: `triggers_restart = { step = "before" }`, powerOp: `triggers_restart = { step = "power" }`, newWorld: func(t *testing.T) (world, machine) {
	m := acctest.NewMetal(t)
	s, err := m.Robot.AddServer(robotemu.ServerSeed{Product: "AX42", Name: foreignName})
	if err != nil {
		t.Fatal(err)
	}
	// The free server an instance claims.
	m.AddServer(t, "AX42")
	return robotWorld{hooks: hooks{c: m.Robot.Conformance(), rules: m.Robot.Faults().Rules}, m: m}, machine{strconv.Itoa(s.Number), foreignName}
}}

type robotWorld struct {
	hooks
	m *acctest.Metal
}

func (robotWorld) provider() string             { return "" }
func (w robotWorld) account(name string) string { return w.m.AccountNamed(name) }
func (robotWorld) instance(res, acct, name string, extra ...string) string {
	return acctest.InstanceBlock{Resource: res, Account: acct, Name: name, Offer: "AX42", Image: "Ubuntu-2404-noble-amd64-base"}.HCL(extra...)
}

// look is, beside the server's name and cancellation, what its machine
// shows of rescue, installs and the commands run on it: Robot tells
// nothing else of what was done to a server.
func (w robotWorld) look(id string) string {
	n, err := strconv.Atoi(id)
	if err != nil {
		return err.Error()
	}
	s, ok := w.m.Server(n)
	if !ok {
		return "gone"
	}
	cancelled, err := w.m.Cancelled(n)
	if err != nil {
		return err.Error()
	}
	mach, ok := w.m.Farm.Machine(n)
	if !ok {
		return "no machine"
	}
	st := mach.Status()
	return fmt.Sprintf("name %q, cancelled %t, rescue armed %t, installs %d, commands %d", s.Name, cancelled, st.Armed, st.Installs, len(mach.Commands()))
}

func (w robotWorld) machines() []machine {
	var out []machine
	for _, s := range w.m.Robot.Servers() {
		if c, _ := w.m.Cancelled(s.Number); !c {
			out = append(out, machine{strconv.Itoa(s.Number), s.Name})
		}
	}
	return out
}

var proxmoxBackend = &backend{name: "proxmox", title: "Proxmox VE", powerBase: `power = "on"`, powerOp: `power = "off"`, newWorld: func(t *testing.T) (world, machine) {
	p := acctest.NewProxmox(t)
	id, err := p.PVE.AddVM(pveemu.VMSeed{Name: foreignName, Running: true})
	if err != nil {
		t.Fatal(err)
	}
	return proxmoxWorld{hooks: hooks{c: p.PVE.Conformance(), rules: p.PVE.Faults().Rules}, p: p}, machine{strconv.Itoa(id), foreignName}
}}

type proxmoxWorld struct {
	hooks
	p *acctest.Proxmox
}

func (w proxmoxWorld) provider() string           { return w.p.Provider() }
func (w proxmoxWorld) account(name string) string { return w.p.AccountNamed(name) }
func (proxmoxWorld) instance(res, acct, name string, extra ...string) string {
	return acctest.InstanceBlock{Resource: res, Account: acct, Name: name, Offer: "small", Image: acctest.ProxmoxTemplate}.HCL(extra...)
}

func (w proxmoxWorld) look(id string) string {
	for _, v := range w.p.Machines() {
		if strconv.Itoa(v.VMID) == id {
			return fmt.Sprintf("status %s, lock %q, config %v", v.Status, v.Lock, v.Config)
		}
	}
	return "gone"
}

func (w proxmoxWorld) machines() []machine {
	var out []machine
	for _, v := range w.p.Machines() {
		out = append(out, machine{strconv.Itoa(v.VMID), v.Config["name"]})
	}
	return out
}
