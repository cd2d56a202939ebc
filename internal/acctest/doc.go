// Package acctest holds what the Terraform-layer tests share: a TestMain that
// pins the CLI binary (Binary: TF_ACC_TERRAFORM_PATH, else the terraform on
// PATH; Terraform or OpenTofu), the registry host the provider's address is
// under for it (ProviderHost), and an empty CLI configuration (so no test
// downloads anything), provider factories wired to a clock that shortens
// waits, a fresh Hetzner Cloud emulator on 127.0.0.1 per test, configuration
// snippets, emulator-backed destroy checks, and a runner that drives the real
// terraform binary against this test binary serving the provider, for tests
// that need the CLI's own logs and files: through dev_overrides (NewCLI) or
// a filesystem mirror and terraform init with any backend (NewInitCLI), in
// the foreground or as a background process a test can SIGKILL with its
// provider (Proc), with an http state backend on loopback (StateBackend).
//
// Where acceptance tests run is the environment's choice (SelectTarget):
// the in-process emulator by default; with TF_ACC=1, an API already running
// at COMPUTE_TEST_ENDPOINT (the standalone emulator) or, with HCLOUD_TOKEN,
// the real Hetzner Cloud API. Tests written with NewTarget run against any of
// them, name what they create with NamePrefix and label it with
// Target.Labels; tests that need the emulator's own powers call NewEmulator,
// which skips them elsewhere. Leftovers on a remote target are removed with
// `go test -sweep` (Sweep): managed machines with the prefix and the test
// label, nothing else.
//
// It is imported by _test files only. It reaches remote targets through the
// provider's adapter registry, never a concrete adapter.
package acctest
