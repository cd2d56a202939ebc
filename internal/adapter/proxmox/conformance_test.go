package proxmox

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// The conformance suite against the Proxmox VE emulator, snippets
// included: every node answers SFTP on its loopback address, pinned by
// ssh_host_keys. Proxmox keeps tags, not labels (NoLabels).
const (
	confTokenID = "terraform@pve!conformance"
	confSecret  = "0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d"
	confFlavors = `{"small":{"cores":1,"memory_mib":1024,"disk_gib":12},"medium":{"cores":2,"memory_mib":2048,"disk_gib":16}}`
)

func TestConformance(t *testing.T) {
	conformance.Run(t, func(t *testing.T) conformance.Target { return newConfTarget(t).Target })
}

type confTarget struct {
	conformance.Target
	emu *pveemu.Emulator
}

func newConfTarget(t testing.TB) confTarget {
	t.Helper()
	emu, endpoint, stop, err := pveemu.NewServer(context.Background(), pveemu.Options{
		Tokens: map[string]string{confTokenID: confSecret}, CloneDuration: 20 * time.Millisecond,
		BootDuration: 20 * time.Millisecond,
		// Long enough that a create right after a delete still finds the VM
		// being destroyed (its VMID is the same key's slot), as on PVE.
		DestroyDuration: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(); emu.Close() })
	key, _ := emu.SSHClientKey()
	var pins []string
	for _, p := range emu.SSHHostKeys() {
		pins = append(pins, p)
	}
	opts := testOptions()
	settings := map[string]string{
		"endpoint": endpoint, "api_token": "provider://pve_token", "tls_fingerprint": emu.CertFingerprint(),
		"flavors": confFlavors, "snippet_storage": "local", "ssh_private_key": "provider://pve_ssh",
		"ssh_host_keys": strings.Join(pins, ","), "ssh_port": strconv.Itoa(emu.SSHPort()), "agent_timeout": "500ms",
	}
	return confTarget{emu: emu, Target: conformance.Target{
		Definition: definition(opts),
		Settings:   settings,
		Env: adapter.Env{
			Secrets: adapter.SecretResolver{Provider: map[string]string{"pve_token": confTokenID + "=" + confSecret, "pve_ssh": string(key)}},
			Clock:   adapter.RealClock{},
		},
		OfferID:  "small",
		Image:    "ubuntu-24.04-cloud",
		Location: "pve1",
		SeedUnmarked: func(t *testing.T, name string) string {
			id, err := emu.AddVM(pveemu.VMSeed{Name: name, Node: "pve1", Running: true})
			if err != nil {
				t.Fatal(err)
			}
			return strconv.Itoa(id)
		},
		NoLabels:        true,
		PowerObservable: true,
		// A running VM whose guest agent is silent is pending, and powered.
		PoweredWhilePending: true,
		MissingID:           "199998",
		Faults:              emu.Conformance(),
		Secrets:             []string{confSecret, strings.TrimSpace(string(key))},
		// Over TLS with a certificate the settings pin, as pveproxy
		// serves: what answers is not PVE, and the connection is trusted.
		ServeImpostor: func(t *testing.T, h http.Handler) map[string]string {
			cert, err := pveemu.NewCertificate()
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewUnstartedServer(h)
			srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert.TLS}}
			srv.StartTLS()
			t.Cleanup(srv.Close)
			out := conformance.PointAt(t, settings, "endpoint", srv.URL)
			out["tls_fingerprint"] = cert.Fingerprint
			return out
		},
	}}
}
