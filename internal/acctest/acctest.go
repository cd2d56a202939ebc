package acctest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TokenEnv names the environment variable that holds Token for tests of any
// backend (a test's own in-memory backend as much as a shipped one's
// emulator); accounts in tests reference it as env://COMPUTE_TEST_TOKEN.
const TokenEnv = "COMPUTE_TEST_TOKEN"

// HetznerCloudTokenEnv names the variable that holds Token for the accounts
// of the Hetzner Cloud emulator (Emulator.Account, the HetznerCloud target
// run in process), as env://COMPUTE_TEST_HCLOUD_TOKEN.
const HetznerCloudTokenEnv = "COMPUTE_TEST_HCLOUD_TOKEN"

// Token is the token every test emulator accepts.
const Token = "test-token-0123456789"

// WrongTokenEnv names a variable holding a token no emulator accepts.
const WrongTokenEnv = "COMPUTE_TEST_WRONG_TOKEN"

// ReadOnlyTokenEnv names the environment variable that holds ReadOnlyToken.
const ReadOnlyTokenEnv = "COMPUTE_TEST_READONLY_TOKEN"

// ReadOnlyToken is a token every test emulator accepts for reads only, as
// a Hetzner Cloud project's read-only API token: every write is refused.
const ReadOnlyToken = "read-only-token-5566778899"

// serveEnv, set in a terraform process's environment, makes the test
// binary that terraform starts as its plugin serve the provider instead of
// running tests.
const serveEnv = "COMPUTE_ACCTEST_SERVE_PROVIDER"

// requestTimeoutEnv, set in a terraform process's environment, bounds
// every backend request of the provider it starts (see
// CLI.SetRequestTimeout).
const requestTimeoutEnv = "COMPUTE_ACCTEST_REQUEST_TIMEOUT"

// realClockEnv, set in a terraform process's environment, has the provider
// it starts wait on the wall clock instead of FastClock (see
// CLI.UseRealClock).
const realClockEnv = "COMPUTE_ACCTEST_REAL_CLOCK"

// Main is every Terraform-layer test package's TestMain.
func Main(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		serve()
		return
	}
	selectFromEnv()
	clearSettingEnv()
	if sweeping() {
		sweepMain(m)
		return
	}
	dir, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "acctest:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// setup makes the environment hermetic: the binary of Binary (never a
// download) under its own provider host, an empty CLI configuration, no
// checkpoint calls. It returns a temporary directory to remove at the end.
func setup() (string, error) {
	dir, err := os.MkdirTemp("", "compute-acctest-")
	if err != nil {
		return "", err
	}
	cfg := filepath.Join(dir, "terraformrc")
	if err := os.WriteFile(cfg, nil, 0o600); err != nil {
		return dir, err
	}
	tf, err := Binary()
	if err != nil {
		return dir, err
	}
	for k, v := range map[string]string{
		"TF_CLI_CONFIG_FILE":       cfg,
		TerraformPathEnv:           tf,
		"CHECKPOINT_DISABLE":       "1",
		"TF_IN_AUTOMATION":         "1",
		"TF_ACC_TEMP_DIR":          dir,
		TokenEnv:                   Token,
		HetznerCloudTokenEnv:       Token,
		WrongTokenEnv:              "refused-token-9876543210",
		ReadOnlyTokenEnv:           ReadOnlyToken,
		"TF_ACC_TERRAFORM_VERSION": "",
	} {
		if v == "" {
			os.Unsetenv(k)
			continue
		}
		os.Setenv(k, v)
	}
	return dir, SetProviderHostFor(tf)
}

// serve runs the provider as a plugin for a terraform process that a test
// started (see CLI).
func serve() {
	opts := []provider.Option{provider.WithClock(clock())}
	if os.Getenv(realClockEnv) != "" {
		opts = []provider.Option{provider.WithClock(adapter.RealClock{})}
	}
	if d, err := time.ParseDuration(os.Getenv(requestTimeoutEnv)); err == nil && d > 0 {
		opts = append(opts, provider.WithRequestTimeout(d))
	}
	server := providerserver.NewProtocol6(provider.New("acctest", opts...)())
	if file := os.Getenv(recordEnv); file != "" {
		server = recordServer(file, server)
	}
	err := tf6server.Serve(ProviderAddress(), server)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acctest: serve provider:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Factories serves the provider in the test process, with waits shortened
// against the in-process emulator (see clock).
func Factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"compute": providerserver.NewProtocol6WithError(provider.New("test", provider.WithClock(clock()))()),
	}
}

// clock is FastClock for the in-process emulator and the wall clock for
// any other target: a real API's actions take real seconds, and polling
// them a hundred times faster would spend a project's rate limit.
func clock() adapter.Clock {
	if selection.kind != InProcess {
		return adapter.RealClock{}
	}
	return FastClock{}
}

// FactoriesWithRequestTimeout is Factories with every backend request
// bounded by what bound returns when Terraform starts the provider (0: each
// adapter's own), for tests of an endpoint that does not answer: the
// production bound would make them wait seconds per request. A test gives
// the short bound only to the steps that meet the silence, so that the
// ordinary steps around them do not fail on a busy machine.
func FactoriesWithRequestTimeout(bound func() time.Duration) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"compute": func() (tfprotov6.ProviderServer, error) {
			p := provider.New("test", provider.WithClock(FastClock{}), provider.WithRequestTimeout(bound()))()
			return providerserver.NewProtocol6WithError(p)()
		},
	}
}

// FastClock tells the real time but waits a hundredth of every delay (at
// most 100ms), so retries and polls keep their order and count without the
// suite sleeping through production back-offs.
type FastClock struct{}

// Now returns the wall time.
func (FastClock) Now() time.Time { return time.Now() }

// After fires after d/100, capped at 100ms.
func (FastClock) After(d time.Duration) <-chan time.Time {
	return time.After(min(d/100, 100*time.Millisecond))
}

// Match compiles a pattern whose spaces match any run of white space, since
// terraform wraps diagnostics at its own line width.
func Match(pattern string) *regexp.Regexp {
	return regexp.MustCompile("(?s)" + strings.ReplaceAll(pattern, " ", `\s+`))
}
