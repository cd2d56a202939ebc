package poweraction_test

import (
	"fmt"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
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
	tap     *robotemu.PasswordTap
	tapURL  string
	account string
}

func newMetalRig(t *testing.T) *metalRig {
	t.Helper()
	m := acctest.NewMetal(t)
	tap, tapURL := newPasswordTap(t, m.Endpoint)
	loc := adapter.Locator{Kind: "robot", Name: "metal", Settings: map[string]string{
		"user": m.SecretRef("user"), "password": m.SecretRef("password"), "endpoint": tapURL,
		"ssh_key": m.KeyFingerprint, "ssh_port": strconv.Itoa(m.Farm.SSHPort()),
	}}
	return &metalRig{t: t, m: m, p: acctest.NewProto(t, provider.DefaultRegistry()), tap: tap, tapURL: tapURL,
		account: loc.String()}
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

// newPasswordTap forwards to the webservice at endpoint through a
// robotemu.PasswordTap, which keeps the password of every rescue
// activation it answers; url is the tap's address.
func newPasswordTap(t *testing.T, endpoint string) (tap *robotemu.PasswordTap, addr string) {
	t.Helper()
	target, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	tap = robotemu.NewPasswordTap(httputil.NewSingleHostReverseProxy(target))
	srv := httptest.NewServer(tap)
	t.Cleanup(srv.Close)
	return tap, srv.URL
}

// TestRescueRobotProto: compute_instance_rescue plans, arms Robot's rescue
// system, resets the server and returns once the rescue system answers; the
// machine runs it, the activation is spent (the next boot starts the disk),
// a second invoke resets nothing and says so, and the rescue password
// Robot answered with is in no diagnostic and no progress message.
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
	resets := r.m.Robot.Stats()["POST /reset/{id}"]
	again, againDiags := r.p.InvokeAction("compute_instance_rescue", r.config(id, claim))
	if acctest.HasError(againDiags) {
		t.Fatalf("invoke on a machine in rescue: %s", errorsOf(againDiags))
	}
	if n := r.m.Robot.Stats()["POST /reset/{id}"] - resets; n != 0 || !strings.Contains(strings.Join(again, "\n"), "nothing is armed or reset") {
		t.Errorf("an invoke on a machine in rescue sent %d resets; its progress should say it reset nothing:\n%s", n, strings.Join(again, "\n"))
	}
	passwords := r.tap.Seen()
	if len(passwords) == 0 {
		t.Fatal("the webservice answered no rescue password, so the sentinel check would pass vacuously")
	}
	said := all + "\n" + strings.Join(again, "\n") + "\n" + errorsOf(diags) + "\n" + warningsOf(diags) + "\n" + warningsOf(againDiags)
	for i, pw := range passwords {
		if strings.Contains(said, pw) {
			t.Errorf("rescue password #%d the webservice answered reached the action's progress or diagnostics (shown as [password]):\n%s",
				i, strings.ReplaceAll(said, pw, "[password]"))
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
		{"unmarked", "", "", `AttributeName("instance").AttributeName("id")`, "does not carry the provider's mark, so compute_instance_rescue does not " +
			"act on it: the provider does a boot into rescue only on machines it manages"},
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
	if len(r.tap.Seen()) != 0 {
		t.Errorf("a refused action activated rescue")
	}
}

// TestRescueRefusedWithoutRescueSystemProto: an account whose adapter has no
// rescue system (Proxmox VE) is refused at plan on instance.account, naming
// the action, the adapter and the backend's own way into a rescue system
// (adapter.NoteRescue); nothing is read: the cluster serves no request.
func TestRescueRefusedWithoutRescueSystemProto(t *testing.T) {
	t.Parallel()
	pve := acctest.NewProxmox(t)
	p := acctest.NewProto(t, provider.DefaultRegistry())
	account := adapter.Locator{Kind: "proxmox", Name: "lab", Settings: map[string]string{
		"endpoint": pve.Endpoint, "api_token": "file://" + pve.TokenFile(), "tls_fingerprint": pve.Fingerprint,
		"flavors": `{"small":{"cores":1,"memory_mib":512,"disk_gib":1}}`,
	}}
	diags := errorsOf(p.PlanAction("compute_instance_rescue", instanceOn(account.String(), "100001")))
	for _, want := range []string{`AttributeName("instance").AttributeName("account"): `, "compute_instance_rescue asks machine 100001",
		"to boot into rescue, but", "the proxmox adapter cannot do that", "to rescue the machine, attach a rescue ISO", "through the VM's console"} {
		if !strings.Contains(diags, want) {
			t.Errorf("the refused rescue lacks %q:\n%s", want, diags)
		}
	}
	if n := served(pve.PVE.Stats()); n != 0 {
		t.Errorf("the refused rescue sent %d requests to the cluster; want none: %v", n, pve.PVE.Stats())
	}
}

// TestRescueRefusedWithoutSSHKeyProto: a Robot account without ssh_key has
// no key to arm rescue with, and the operator none to log in with: the
// action is refused at plan on instance.account, naming the setting, as the
// account id already tells, and again at invoke; nothing is read or armed.
func TestRescueRefusedWithoutSSHKeyProto(t *testing.T) {
	t.Parallel()
	r := newMetalRig(t)
	claim := adapter.NewClaim()
	id := r.server("no-key-1", claim)
	loc, err := adapter.ParseLocator(r.account)
	if err != nil {
		t.Fatal(err)
	}
	delete(loc.Settings, "ssh_key")
	keyless := (&rig{account: loc.String()}).config(id, claim, nil)
	before := r.m.Robot.Stats()
	plan := errorsOf(r.p.PlanAction("compute_instance_rescue", keyless))
	_, invoke := r.p.InvokeAction("compute_instance_rescue", keyless)
	for when, diags := range map[string]string{"plan": plan, "invoke": errorsOf(invoke)} {
		for _, want := range []string{`AttributeName("instance").AttributeName("account"): `,
			"compute_instance_rescue needs the account's ssh_key setting, which is not set", "machine " + id} {
			if !strings.Contains(diags, want) {
				t.Errorf("%s without ssh_key lacks %q:\n%s", when, want, diags)
			}
		}
	}
	if after := r.m.Robot.Stats(); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("the refused action sent requests: before %v, after %v", before, after)
	}
	if runs, armed := r.booted(id); runs == "rescue" || armed {
		t.Errorf("the refused action left server %s running %q with rescue armed %t", id, runs, armed)
	}
}
