package acctest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Every variable of a run on the three backends, the accounts at loopback
// endpoints as the standalone emulator serves them.
var everyAccount = map[string]string{
	"TF_ACC": "1", EndpointEnv: "http://127.0.0.1:8080/v1",
	RobotUserEnv: "u", RobotPasswordEnv: "p", RobotServerEnv: "2100001", RobotSSHKeyEnv: "56:29:99:a4:5d:ed:ac:95:c1:f5:88:82:90:5d:dd:10",
	RobotSSHKeyFileEnv: "/tmp/key", RobotEndpointEnv: "http://127.0.0.1:8080/robot",
	ProxmoxEndpointEnv: "https://127.0.0.1:8006", ProxmoxTokenEnv: "root@pam!t=s", ProxmoxTemplateEnv: "ubuntu-24.04-cloud",
}

func with(base map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			delete(out, kv[i])
			continue
		}
		out[kv[i]] = kv[i+1]
	}
	return out
}

// TestSelectTargets: which backend runs where, and which skips naming
// exactly the variables it lacks.
func TestSelectTargets(t *testing.T) {
	type want struct {
		kind    TargetKind // where it runs, when it does
		missing []string   // nil: the backend runs
	}
	robotVars := []string{RobotUserEnv, RobotPasswordEnv, RobotServerEnv, RobotSSHKeyEnv, RobotSSHKeyFileEnv}
	pveVars := []string{ProxmoxEndpointEnv, ProxmoxTokenEnv, ProxmoxTemplateEnv}
	hcloudVar := []string{RealTokenEnv + " (or " + EndpointEnv + ")"}
	for _, c := range []struct {
		name string
		env  map[string]string
		run  TargetKind
		want map[*Backend]want
	}{
		{"nothing set", map[string]string{}, InProcess, nil},
		// Variables alone never leave the in-process emulators.
		{"accounts without TF_ACC", with(everyAccount, "TF_ACC", ""), InProcess, nil},
		{"TF_ACC alone", map[string]string{"TF_ACC": "1"}, InProcess, nil},
		{"a Hetzner Cloud project", map[string]string{"TF_ACC": "1", RealTokenEnv: "x"}, RealAPI, map[*Backend]want{
			HetznerCloud: {RealAPI, nil}, HetznerRobot: {RealAPI, robotVars}, ProxmoxVE: {RealAPI, pveVars},
		}},
		// An endpoint wins over a token: the token is that API's.
		{"the standalone Hetzner Cloud API", map[string]string{"TF_ACC": "1", RealTokenEnv: "x", EndpointEnv: "http://127.0.0.1:8080/v1"}, Standalone, map[*Backend]want{
			HetznerCloud: {Standalone, nil}, HetznerRobot: {RealAPI, robotVars}, ProxmoxVE: {RealAPI, pveVars},
		}},
		// Hetzner Cloud's own API needs no endpoint: one set is the tests'.
		{"the Hetzner Cloud API on another host", map[string]string{"TF_ACC": "1", EndpointEnv: "http://emulator.example:8080/v1"}, Standalone, map[*Backend]want{
			HetznerCloud: {Standalone, nil}, HetznerRobot: {RealAPI, robotVars}, ProxmoxVE: {RealAPI, pveVars},
		}},
		{"every standalone API", everyAccount, Standalone, map[*Backend]want{
			HetznerCloud: {Standalone, nil}, HetznerRobot: {Standalone, nil}, ProxmoxVE: {Standalone, nil},
		}},
		{"a real Robot account", with(everyAccount, EndpointEnv, "", RobotEndpointEnv, ""), RealAPI, map[*Backend]want{
			HetznerCloud: {RealAPI, hcloudVar}, HetznerRobot: {RealAPI, nil}, ProxmoxVE: {Standalone, nil},
		}},
		{"a real cluster", with(everyAccount, ProxmoxEndpointEnv, "https://pve1.example.com:8006"), RealAPI, map[*Backend]want{
			HetznerCloud: {Standalone, nil}, HetznerRobot: {Standalone, nil}, ProxmoxVE: {RealAPI, nil},
		}},
		// A backend half set up names what it lacks, and no other.
		{"Robot without its server and key", map[string]string{"TF_ACC": "1", RobotUserEnv: "u", RobotPasswordEnv: "p"}, Standalone, map[*Backend]want{
			HetznerCloud: {RealAPI, hcloudVar}, HetznerRobot: {RealAPI, []string{RobotServerEnv, RobotSSHKeyEnv, RobotSSHKeyFileEnv}}, ProxmoxVE: {RealAPI, pveVars},
		}},
		{"Proxmox without a template", with(everyAccount, ProxmoxTemplateEnv, ""), Standalone, map[*Backend]want{
			HetznerCloud: {Standalone, nil}, HetznerRobot: {Standalone, nil}, ProxmoxVE: {RealAPI, []string{ProxmoxTemplateEnv}},
		}},
		// An optional variable is enough to mean "run on accounts".
		{"only an optional variable", map[string]string{"TF_ACC": "1", ProxmoxNodeEnv: "pve1"}, Standalone, map[*Backend]want{
			HetznerCloud: {RealAPI, hcloudVar}, HetznerRobot: {RealAPI, robotVars}, ProxmoxVE: {RealAPI, pveVars},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := SelectTargets(func(k string) string { return c.env[k] })
			if s.Kind() != c.run {
				t.Errorf("the run's kind is %s, want %s", s.Kind(), c.run)
			}
			for _, b := range Backends {
				w := c.want[b]
				kind, skip := s.For(b)
				if w.missing == nil {
					if kind != w.kind || skip != "" {
						t.Errorf("%s runs on %s, skip %q; want it to run on %s", b.Title, kind, skip, w.kind)
					}
					continue
				}
				if !strings.Contains(skip, b.Title+" lacks "+strings.Join(w.missing, ", ")+" (") {
					t.Errorf("%s skips with %q, want it to name exactly %v", b.Title, skip, w.missing)
				}
			}
		})
	}
}

// withSelection makes env this process's selection for one test.
func withSelection(t *testing.T, env map[string]string) {
	was := selection
	selection = SelectTargets(func(k string) string { return env[k] })
	t.Cleanup(func() { selection = was })
}

// skipRecorder keeps what a test was skipped with.
type skipRecorder struct {
	testing.TB
	skipped string
}

func (r *skipRecorder) Skip(args ...any) {
	r.skipped = strings.TrimSpace(strings.Join(strings.Fields(strings.TrimSpace(fmtArgs(args...))), " "))
	panic(r)
}

func fmtArgs(args ...any) string {
	var b strings.Builder
	for _, a := range args {
		if s, ok := a.(string); ok {
			b.WriteString(s)
		}
	}
	return b.String()
}

// newTargetOrSkip is NewTargetOn, and the reason when it skipped.
func newTargetOrSkip(t *testing.T, b *Backend) (tg *Target, skipped string) {
	r := &skipRecorder{TB: t}
	defer func() {
		if p := recover(); p != nil {
			if p != r {
				panic(p)
			}
			skipped = r.skipped
		}
	}()
	return NewTargetOn(r, b), ""
}

// A test on a backend the environment left out skips, naming the
// variables; one on a backend it named writes an account from them, read
// when the process started (Main unsets PROXMOX_VE_ENDPOINT before the
// tests run).
func TestNewTargetOnSkipsOrWritesTheAccount(t *testing.T) {
	withSelection(t, with(everyAccount, RobotServerEnv, "", EndpointEnv, "", ProxmoxFingerprintEnv, "AA:BB", ProxmoxNodeEnv, "pve2"))
	if tg, skipped := newTargetOrSkip(t, HetznerRobot); tg != nil || !strings.Contains(skipped, "Hetzner Robot lacks "+RobotServerEnv+" (") {
		t.Errorf("Robot target without %s: %v, skipped %q; want a skip naming it", RobotServerEnv, tg, skipped)
	}
	if tg, skipped := newTargetOrSkip(t, HetznerCloud); tg != nil || !strings.Contains(skipped, RealTokenEnv) {
		t.Errorf("Hetzner Cloud target without a token: %v, skipped %q", tg, skipped)
	}
	t.Setenv(ProxmoxEndpointEnv, "")
	tg, skipped := newTargetOrSkip(t, ProxmoxVE)
	if tg == nil {
		t.Fatalf("Proxmox target skipped: %s", skipped)
	}
	account := tg.Account()
	for _, line := range []string{
		`proxmox = {`, `endpoint = "https://127.0.0.1:8006"`, `api_token = "env://PROXMOX_VE_API_TOKEN"`, `tls_fingerprint = "AA:BB"`,
		`node = "pve2"`, `vmid_min = "990000"`, `vmid_max = "999999"`,
	} {
		if !strings.Contains(account, line) {
			t.Errorf("the Proxmox account lacks %s:\n%s", line, account)
		}
	}
	if tg.Image != "ubuntu-24.04-cloud" || tg.Offer != ProxmoxTestFlavor || tg.Location != "pve2" {
		t.Errorf("the Proxmox target creates %s of %s on %q", tg.Image, tg.Offer, tg.Location)
	}
}

// A Robot target's account reads the credentials from the provider's own
// variables, the key from its file, and never cancels a rental.
func TestRobotTargetAccount(t *testing.T) {
	withSelection(t, with(everyAccount, RobotSSHKeyFileEnv, "key", RobotSSHPortEnv, "2222"))
	tg, skipped := newTargetOrSkip(t, HetznerRobot)
	if tg == nil {
		t.Fatalf("Robot target skipped: %s", skipped)
	}
	key, _ := filepath.Abs("key")
	account := tg.Account()
	for _, line := range []string{
		`hetzner_robot = {`, `user = "env://HETZNER_ROBOT_USER"`, `password = "env://HETZNER_ROBOT_PASSWORD"`,
		`endpoint = "http://127.0.0.1:8080/robot"`, `ssh_key = "56:29:99:a4:5d:ed:ac:95:c1:f5:88:82:90:5d:dd:10"`,
		`ssh_private_key = "file://` + key + `"`, `ssh_port = "2222"`, `cancel_on_destroy = "false"`,
	} {
		if !strings.Contains(account, line) {
			t.Errorf("the Robot account lacks %s:\n%s", line, account)
		}
	}
	if tg.MachineID != "2100001" || tg.Image != RobotImage {
		t.Errorf("the Robot target claims %q and installs %q", tg.MachineID, tg.Image)
	}
	if l := tg.Locator(); l.Settings["cancel_on_destroy"] != "false" {
		t.Errorf("the Robot target's locator: %v", l.Settings)
	}
}

// Robot's and Proxmox VE's test marks: a sweep takes only the named
// server, only the tests' VMIDs, and only with the prefix and managed mark.
func TestSweepKeepsToTheTestMarkOfEachBackend(t *testing.T) {
	for _, c := range []struct {
		tg   *Target
		ids  []string // of prefixed, managed machines
		want []string
	}{
		{&Target{Backend: HetznerRobot, MachineID: "2100001"}, []string{"2100001", "2100002", "21000010"}, []string{"2100001"}},
		{&Target{Backend: HetznerRobot}, []string{"2100001"}, nil},
		{&Target{Backend: ProxmoxVE}, []string{"989999", "990000", "999999", "1000000", "100123"}, []string{"990000", "999999"}},
	} {
		f := &fakeAccount{}
		for _, id := range c.ids {
			f.machines = append(f.machines, adapter.Machine{ID: id, Name: "tfacc-" + id, Managed: true, State: adapter.StateRunning})
		}
		// Never without the prefix or the managed mark.
		f.machines = append(f.machines,
			adapter.Machine{ID: "2100001", Name: "db-1", Managed: true, State: adapter.StateRunning},
			adapter.Machine{ID: "990001", Name: "tfacc-by-hand", Managed: false, State: adapter.StateRunning})
		if _, err := Sweep(context.Background(), f, c.tg.Sweepable); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(f.deleted, c.want) {
			t.Errorf("%s: the sweep deleted %v, want %v", c.tg.Backend.Title, f.deleted, c.want)
		}
	}
}

// TestEveryVariableIsDocumented: the README's testing section and make
// testacc's comment name every variable of every backend, so a variable
// added here cannot be one a user never hears of.
func TestEveryVariableIsDocumented(t *testing.T) {
	for _, f := range []string{"../../README.md", "../../GNUmakefile"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, be := range Backends {
			for _, v := range be.variables() {
				if !regexp.MustCompile(`\b` + v + `\b`).Match(b) {
					t.Errorf("%s does not name %s, a variable of %s", filepath.Base(f), v, be.Title)
				}
			}
		}
	}
}

// TestStandaloneRunTakesTheEmulatorsDefaults: a backend on the standalone
// emulator whose variables leave out what the emulator has a default for
// (Hetzner Cloud's token) runs with that default.
func TestStandaloneRunTakesTheEmulatorsDefaults(t *testing.T) {
	was := selection
	t.Cleanup(func() { selection = was })
	t.Setenv("TF_ACC", "1")
	t.Setenv(EndpointEnv, "http://127.0.0.1:8080/v1")
	t.Setenv(RealTokenEnv, "")
	selectFromEnv()
	if k, skip := selection.For(HetznerCloud); k != Standalone || skip != "" {
		t.Fatalf("Hetzner Cloud runs on %s, skip %q; want the standalone API", k, skip)
	}
	if got := os.Getenv(RealTokenEnv); got != standaloneToken {
		t.Errorf("%s = %q on the standalone API, want its default %q", RealTokenEnv, got, standaloneToken)
	}
}
