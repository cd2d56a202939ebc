package acctest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// CLI drives the real terraform binary in a working directory of its own,
// with this test binary installed as the provider through a dev_overrides
// CLI configuration: the provider runs as a real plugin process, so the
// CLI's logs and files are exactly what a user's would be.
type CLI struct {
	t       testing.TB
	Dir     string
	env     []string
	backend string
	record  string // the file the provider appends its diagnostics to
}

// Config replaces main.tf with config, under the same terraform block.
func (c *CLI) Config(config string) {
	c.Write("main.tf", "terraform {\n  required_providers {\n    compute = { source = \"seedcompute/compute\" }\n  }\n  "+c.backend+"}\n"+config)
}

// NewCLI prepares a working directory holding config (main.tf) and a CLI
// configuration that points the provider's address at this test binary
// through dev_overrides: no terraform init is needed.
func NewCLI(t testing.TB, config string) *CLI {
	t.Helper()
	return newCLI(t, config, false, "")
}

// NewInitCLI is NewCLI for a configuration that needs terraform init: the
// test binary is installed in a filesystem mirror, as `make install` installs
// the provider, and backend (a backend block, or "" for the local one) goes
// into the terraform block. It runs terraform init.
func NewInitCLI(t testing.TB, backend, config string) *CLI {
	t.Helper()
	c := newCLI(t, config, true, backend)
	c.MustRun("init", "-input=false")
	return c
}

func newCLI(t testing.TB, config string, mirror bool, backend string) *CLI {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("find test binary: %v", err)
	}
	root := t.TempDir()
	plugins := filepath.Join(root, "plugins")
	work := filepath.Join(root, "work")
	// The source as configurations write it: each binary resolves it to
	// its own host, which is the one the mirror must hold.
	source := ProviderSource
	binDir, binName := plugins, "terraform-provider-compute"
	rcText := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", source, plugins)
	if mirror {
		// The unpacked layout of a filesystem mirror.
		binDir = filepath.Join(plugins, ProviderAddress(), mirrorVersion, runtime.GOOS+"_"+runtime.GOARCH)
		binName = "terraform-provider-compute_v" + mirrorVersion
		rcText = fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %q\n    include = [%q]\n  }\n  direct {\n    exclude = [%q]\n  }\n}\n", plugins, ProviderAddress(), ProviderAddress())
	}
	for _, d := range []string{binDir, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(exe, filepath.Join(binDir, binName)); err != nil {
		t.Fatalf("install provider: %v", err)
	}
	rc := filepath.Join(root, "terraformrc")
	if err := os.WriteFile(rc, []byte(rcText), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &CLI{t: t, Dir: work, record: filepath.Join(root, "diagnostics.jsonl")}
	c.env = append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+rc,
		serveEnv+"=1",
		recordEnv+"="+c.record,
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
		"TF_INPUT=0",
		"TF_CLI_ARGS=-no-color",
	)
	c.Write("main.tf", "terraform {\n  required_providers {\n    compute = { source = \"seedcompute/compute\" }\n  }\n  "+backend+"}\n"+config)
	c.backend = backend
	return c
}

// mirrorVersion is the version the test binary is installed as in a
// filesystem mirror.
const mirrorVersion = "0.0.1"

// Setenv adds a variable to every later command's environment; set again,
// the later value wins (os/exec keeps the last of a duplicated key).
func (c *CLI) Setenv(key, value string) { c.env = append(c.env, key+"="+value) }

// SetRequestTimeout bounds every backend request of the provider that later
// commands start by d, as FactoriesWithRequestTimeout does in process: a
// request the emulator holds until its client leaves then costs d, not the
// adapter's production bound.
func (c *CLI) SetRequestTimeout(d time.Duration) { c.Setenv(requestTimeoutEnv, d.String()) }

// UseRealClock has the provider that later commands start wait on the wall
// clock, as in production, instead of FastClock: shared listing rounds are
// then PollInterval apart, so a test can bound them by the time a command
// took, a bound that a slow machine only loosens.
func (c *CLI) UseRealClock() { c.Setenv(realClockEnv, "1") }

// Write writes a file into the working directory.
func (c *CLI) Write(name, text string) {
	c.t.Helper()
	if err := os.WriteFile(filepath.Join(c.Dir, name), []byte(text), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

// Read returns a file of the working directory, "" when it is missing.
func (c *CLI) Read(name string) string {
	b, _ := os.ReadFile(filepath.Join(c.Dir, name))
	return string(b)
}

// Written is what the provider sent terraform during the last command
// (Run, MustRun or Start): every diagnostic, as the provider wrote it,
// before terraform adds the configuration's source lines to it.
func (c *CLI) Written() *Written {
	c.t.Helper()
	w, err := readWritten(c.record)
	if err != nil {
		c.t.Fatalf("read the provider's diagnostics: %v", err)
	}
	return w
}

// Run runs terraform with args and returns its combined output and error.
func (c *CLI) Run(args ...string) (string, error) {
	c.t.Helper()
	cmd := c.command(args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// MustRun runs terraform and fails the test when it fails.
func (c *CLI) MustRun(args ...string) string {
	c.t.Helper()
	out, err := c.Run(args...)
	if err != nil {
		c.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// command is the binary of Binary with args in the working directory and
// environment, the provider's record of diagnostics emptied for it.
func (c *CLI) command(args ...string) *exec.Cmd {
	path, err := Binary()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := os.Remove(c.record); err != nil && !os.IsNotExist(err) {
		c.t.Fatal(err)
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = c.Dir
	cmd.Env = c.env
	return cmd
}

// Diagnostic is the diagnostic of Terraform's output that starts with
// heading ("Warning: Summary"), up to the next one; "" when there is none.
func Diagnostic(out, heading string) string {
	_, block, ok := strings.Cut(out, heading)
	if !ok {
		return ""
	}
	if i := strings.Index(block, "\nWarning: "); i >= 0 {
		block = block[:i]
	}
	if i := strings.Index(block, "\nError: "); i >= 0 {
		block = block[:i]
	}
	return block
}
