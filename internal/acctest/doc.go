// Package acctest holds what the Terraform-layer tests share: a TestMain that
// pins the terraform binary on PATH and an empty CLI configuration (so no test
// downloads anything), provider factories wired to a clock that shortens
// waits, a fresh Hetzner Cloud emulator on 127.0.0.1 per test, configuration
// snippets, emulator-backed destroy checks, and a runner that drives the real
// terraform binary against this test binary serving the provider, for tests
// that need the CLI's own logs and files: through dev_overrides (NewCLI) or
// a filesystem mirror and terraform init with any backend (NewInitCLI), in
// the foreground or as a background process a test can SIGKILL with its
// provider (Proc), with an http state backend on loopback (StateBackend).
//
// It is imported by _test files only.
package acctest
