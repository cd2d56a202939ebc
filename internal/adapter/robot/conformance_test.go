package robot

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/sshhost"
)

// The conformance suite against the Robot emulator, its machines played by
// an SSH farm. Robot differs from a cloud in three ways the target states
// instead of the suite bending:
//
//   - servers are rented, not made: each target rents confServers free
//     servers of confOffer for the creates to claim;
//   - a delete is a release, which leaves the server on the account: the
//     account cancels on destroy, so a deleted server is cancelled "now"
//     and gone soon after (the emulator's CancelDelay), as on Robot;
//   - Robot has no labels and no user data, and cannot see power: the
//     target says so (NoLabels, NoUserData, PowerObservable false), and
//     what each power action reached the machine as is read from the farm.
//
// EX44 is the offer because it has every reset type the adapter's power
// actions need (power_long for power_off) and Wake on LAN for power_on.
const (
	confOffer    = "EX44"
	confLocation = "fsn1"
	// confServers covers the case that claims the most: the fault matrix,
	// with a create under every fault class, three of them committed.
	confServers = 16
	confUser    = "robot-conf-user-51ab"
	confPass    = "robot-conf-pass-93Fz"
)

func TestConformance(t *testing.T) {
	conformance.Run(t, newConfTarget)
}

func newConfTarget(t *testing.T) conformance.Target {
	t.Helper()
	farm, err := sshhost.New(sshhost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = farm.Close() })
	rec := &confFarm{Farm: farm, got: map[int][]adapter.PowerAction{}, machines: map[int]metal.Machine{}}
	emu, endpoint, stop, err := robotemu.NewServer(context.Background(), robotemu.Options{
		User: confUser, Password: confPass, Farm: rec, Unlimited: true, CancelDelay: 50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	// The account's SSH key, which a boot into rescue arms rescue with.
	_, pub := newAccountKey(t)
	fp, err := emu.AddKey("conformance", pub)
	if err != nil {
		t.Fatal(err)
	}
	for range confServers {
		if _, err := emu.AddServer(robotemu.ServerSeed{Product: confOffer}); err != nil {
			t.Fatal(err)
		}
	}
	settings := map[string]string{
		"user": "provider://robot_user", "password": "provider://robot_password", "endpoint": endpoint,
		"location": confLocation, "cancel_on_destroy": "true", "ssh_key": fp, "ssh_port": strconv.Itoa(farm.SSHPort()),
	}
	return conformance.Target{
		Definition: definition(options{poll: adapter.Backoff{Initial: time.Millisecond, Max: 10 * time.Millisecond}, requestTimeout: 5 * time.Second}),
		Settings:   settings,
		Env: adapter.Env{
			Secrets: adapter.SecretResolver{Provider: map[string]string{"robot_user": confUser, "robot_password": confPass}},
			Clock:   adapter.RealClock{},
		},
		OfferID:    confOffer,
		Image:      "Ubuntu-2404-noble-amd64-base",
		OtherImage: "Debian-1208-bookworm-amd64-base",
		Location:   confLocation,
		// A server named in Robot's panel, as a user names one in use.
		SeedUnmarked: func(t *testing.T, name string) string {
			s, err := emu.AddServer(robotemu.ServerSeed{Product: confOffer, Name: name})
			if err != nil {
				t.Fatal(err)
			}
			return strconv.Itoa(s.Number)
		},
		NoLabels:        true,
		NoUserData:      true,
		PowerObservable: false,
		PowerReceived:   rec.received,
		InRescue:        rec.inRescue,
		Faults:          emu.Conformance(),
		Secrets:         []string{confUser, confPass},
		// The webservice's answer for a URL it has no route for.
		UnknownRoute: &conformance.UnknownRoute{Status: http.StatusNotFound, Body: `{"error":{"status":404,"code":"NOT_FOUND","message":"Not Found"}}`},
		ServeImpostor: func(t *testing.T, h http.Handler) map[string]string {
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			return conformance.PointAt(t, settings, "endpoint", srv.URL)
		},
	}
}

// confFarm is the farm with a record of what each machine received from
// the webservice, in the contract's words: the suite's oracle for power on
// a backend that cannot report it.
type confFarm struct {
	metal.Farm
	mu       sync.Mutex
	got      map[int][]adapter.PowerAction
	machines map[int]metal.Machine
}

func (f *confFarm) Add(number int, spec metal.Spec) (metal.Machine, error) {
	m, err := f.Farm.Add(number, spec)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.machines[number] = m
	f.mu.Unlock()
	return &confMachine{Machine: m, number: number, farm: f}, nil
}

// inRescue reports whether the machine runs its rescue system or has it
// armed for its next boot.
func (f *confFarm) inRescue(t *testing.T, id string) bool {
	n, err := strconv.Atoi(id)
	if err != nil {
		t.Fatalf("machine id %q is not a server number", id)
	}
	f.mu.Lock()
	m, ok := f.machines[n]
	f.mu.Unlock()
	if !ok {
		t.Fatalf("the farm has no machine %d", n)
	}
	return m.Booted() == "rescue" || m.Armed()
}

func (f *confFarm) note(number int, a adapter.PowerAction) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got[number] = append(f.got[number], a)
}

func (f *confFarm) received(t *testing.T, id string) []adapter.PowerAction {
	n, err := strconv.Atoi(id)
	if err != nil {
		t.Fatalf("machine id %q is not a server number", id)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]adapter.PowerAction(nil), f.got[n]...)
}

type confMachine struct {
	metal.Machine
	number int
	farm   *confFarm
}

// Reset records a delivered reset as the action it is: the power button
// starts a machine that is off and asks a running one to shut down.
func (m *confMachine) Reset(kind string) error {
	wasOff := m.Booted() == "off"
	if err := m.Machine.Reset(kind); err != nil {
		return err
	}
	switch kind {
	case "sw":
		m.farm.note(m.number, adapter.PowerReboot)
	case "hw", "man":
		m.farm.note(m.number, adapter.PowerReset)
	case "power_long":
		m.farm.note(m.number, adapter.PowerOff)
	case "power":
		if wasOff {
			m.farm.note(m.number, adapter.PowerOn)
		} else {
			m.farm.note(m.number, adapter.PowerShutdown)
		}
	}
	return nil
}

// WakeOnLAN records a power_on.
func (m *confMachine) WakeOnLAN() error {
	if err := m.Machine.WakeOnLAN(); err != nil {
		return err
	}
	m.farm.note(m.number, adapter.PowerOn)
	return nil
}
