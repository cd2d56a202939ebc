package poweraction_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// metalRig is the provider served through the protocol beside the Robot
// emulator and its SSH farm (acctest.Metal), reached through a tap that
// keeps every rescue password the webservice hands out: the sentinels.
type metalRig struct {
	t       *testing.T
	m       *acctest.Metal
	p       *acctest.Proto
	tap     *passwordTap
	account string
}

func newMetalRig(t *testing.T) *metalRig {
	t.Helper()
	m := acctest.NewMetal(t)
	tap := newPasswordTap(t, m.Endpoint)
	loc := adapter.Locator{Kind: "robot", Name: "metal", Settings: map[string]string{
		"user": m.SecretRef("user"), "password": m.SecretRef("password"), "endpoint": tap.url,
		"ssh_key": m.KeyFingerprint, "ssh_port": strconv.Itoa(m.Farm.SSHPort()),
	}}
	return &metalRig{t: t, m: m, p: acctest.NewProto(t, provider.DefaultRegistry()), tap: tap, account: loc.String()}
}

// server rents a server named name, with the mark of claim when claim is
// not empty, and returns its id.
func (r *metalRig) server(name, claim string) string {
	r.t.Helper()
	if claim != "" {
		// The mark as Robot's adapter writes it: claim, fingerprint, and
		// "e" for a server that was unnamed before it was claimed.
		name += "~cm~" + claim + "~00000000~e"
	}
	s, err := r.m.Robot.AddServer(robotemu.ServerSeed{Product: "AX42", Name: name})
	if err != nil {
		r.t.Fatal(err)
	}
	return strconv.Itoa(s.Number)
}

// booted is what server id's machine runs, and whether rescue is armed.
func (r *metalRig) booted(id string) (string, bool) {
	n, _ := strconv.Atoi(id)
	mach := r.m.Machine(r.t, n)
	return mach.Booted(), mach.Armed()
}

func (r *metalRig) config(id, claim string) map[string]tftypes.Value {
	return (&rig{account: r.account}).config(id, claim, nil)
}

// passwordTap forwards to the webservice and keeps the password of every
// rescue activation it answers.
type passwordTap struct {
	url       string
	mu        sync.Mutex
	passwords []string
}

func newPasswordTap(t *testing.T, endpoint string) *passwordTap {
	t.Helper()
	target, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	tap := &passwordTap{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		var out struct {
			Rescue struct {
				Password *string `json:"password"`
			} `json:"rescue"`
		}
		if json.Unmarshal(body, &out) == nil && out.Rescue.Password != nil && *out.Rescue.Password != "" {
			tap.mu.Lock()
			tap.passwords = append(tap.passwords, *out.Rescue.Password)
			tap.mu.Unlock()
		}
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	tap.url = srv.URL
	return tap
}

func (p *passwordTap) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.passwords...)
}

// TestRescueRobotProto: compute_instance_rescue plans, arms Robot's rescue
// system, resets the server and returns once the rescue system answers; the
// machine runs it, the activation is spent (the next boot starts the disk),
// and the rescue password Robot answered with is in no diagnostic and no
// progress message.
func TestRescueRobotProto(t *testing.T) {
	t.Parallel()
	r := newMetalRig(t)
	claim := adapter.NewClaim()
	id := r.server("rescue-1", claim)
	if diags := r.p.PlanAction("compute_instance_rescue", r.config(id, claim)); acctest.HasError(diags) {
		t.Fatalf("plan: %s", errorsOf(diags))
	}
	progress, diags := r.p.InvokeAction("compute_instance_rescue", r.config(id, claim))
	if acctest.HasError(diags) {
		t.Fatalf("invoke: %s", errorsOf(diags))
	}
	if runs, armed := r.booted(id); runs != "rescue" || armed {
		t.Errorf("after the action server %s runs %q with rescue armed %t; want it in rescue, the activation spent", id, runs, armed)
	}
	all := strings.Join(progress, "\n")
	for _, want := range []string{"booting it into its rescue system", "runs its rescue system", "log in as root with the account's SSH key"} {
		if !strings.Contains(all, want) {
			t.Errorf("progress lacks %q:\n%s", want, all)
		}
	}
	passwords := r.tap.seen()
	if len(passwords) == 0 {
		t.Fatal("the webservice answered no rescue password, so the sentinel check would pass vacuously")
	}
	said := all + "\n" + errorsOf(diags) + "\n" + warningsOf(diags)
	for _, pw := range passwords {
		if strings.Contains(said, pw) {
			t.Errorf("the rescue password %q reached the action's progress or diagnostics:\n%s", pw, said)
		}
	}
}

// TestRescueRefusesMachinesNotHeldProto: compute_instance_rescue acts only
// on a machine this state holds, at plan and at invoke: one without the
// provider's mark and one another state's claim holds are refused, naming
// the machine, and nothing is armed or reset.
func TestRescueRefusesMachinesNotHeldProto(t *testing.T) {
	t.Parallel()
	r := newMetalRig(t)
	mine := adapter.NewClaim()
	for _, c := range []struct {
		name, claim, config string
		path, want          string
	}{
		{"unmarked", "", "", `AttributeName("instance").AttributeName("id")`, "does not carry the provider's mark"},
		// Robot keeps the mark in the server's name: a state's machine
		// renamed in Robot's panel lost it, and waits for the next apply.
		{"renamed", "", mine, `AttributeName("instance").AttributeName("id")`, "lost the provider's mark"},
		{"theirs", adapter.NewClaim(), mine, `AttributeName("instance").AttributeName("claim")`, "is held by another Terraform state"},
	} {
		id := r.server("refuse-"+c.name, c.claim)
		plan := r.p.PlanAction("compute_instance_rescue", r.config(id, c.config))
		_, invoke := r.p.InvokeAction("compute_instance_rescue", r.config(id, c.config))
		for when, diags := range map[string]string{"plan": errorsOf(plan), "invoke": errorsOf(invoke)} {
			if !strings.Contains(diags, c.path+": ") || !strings.Contains(diags, c.want) || !strings.Contains(diags, "Machine "+id+" ") {
				t.Errorf("%s of the %s machine: want an error on %s naming machine %s and saying %q, got:\n%s", when, c.name, c.path, id, c.want, diags)
			}
		}
		if runs, armed := r.booted(id); runs == "rescue" || armed {
			t.Errorf("the refused action left the %s server %s running %q with rescue armed %t", c.name, id, runs, armed)
		}
	}
	if len(r.tap.seen()) != 0 {
		t.Errorf("a refused action activated rescue")
	}
}

// TestRescueRefusedWithoutRescueSystemProto: an account whose adapter has no
// rescue system (Proxmox VE, Hetzner Cloud until its adapter offers it) is
// refused at plan on instance.account, naming the action, the adapter and
// the way out; nothing is read.
func TestRescueRefusedWithoutRescueSystemProto(t *testing.T) {
	t.Parallel()
	p := acctest.NewProto(t, provider.DefaultRegistry())
	pve := adapter.Locator{Kind: "proxmox", Name: "lab", Settings: map[string]string{
		"endpoint": "https://127.0.0.1:1", "api_token": "env://NOBODY", "flavors": `{"small":{"cores":1,"memory_mib":512,"disk_gib":1}}`,
	}}
	diags := errorsOf(p.PlanAction("compute_instance_rescue", instanceOn(pve.String(), "100001")))
	for _, want := range []string{`AttributeName("instance").AttributeName("account"): `, "compute_instance_rescue asks machine 100001",
		"to boot into rescue, but the proxmox adapter cannot do that", "boot it from a rescue image through the backend's own console"} {
		if !strings.Contains(diags, want) {
			t.Errorf("the refused rescue lacks %q:\n%s", want, diags)
		}
	}
}
