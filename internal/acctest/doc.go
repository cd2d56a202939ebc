// Package acctest holds what the Terraform-layer tests share.
//
// The CLI. Main is every such package's TestMain: it pins the binary the
// tests drive (Binary: TF_ACC_TERRAFORM_PATH, else the terraform on PATH;
// Terraform or OpenTofu, never a download), the registry host the
// provider's address is under for it (ProviderHost, with TerraformHost and
// OpenTofuHost the two a source without a host can mean), and an empty CLI
// configuration, and it clears the variables accounts fall back on for a
// setting left out (clearSettingEnv: HCLOUD_TOKEN, PROXMOX_VE_ENDPOINT and
// the rest; the secrets only when the target is the in-process emulator,
// since another target is reached through one), so a developer's shell
// never points a test at a real API or hands it a real credential. A test that needs what only Terraform can do
// calls SkipUnderOpenTofu, which names the version and the reason.
//
// The provider and its emulators. Factories serve the provider in the test
// process, wired to a clock that shortens waits; NewEmulator starts a fresh
// Hetzner Cloud emulator on 127.0.0.1 per test, with configuration snippets
// and emulator-backed destroy checks. A runner drives the real terraform
// binary against this test binary serving the provider, for tests that need
// the CLI's own logs and files: through dev_overrides (NewCLI) or a
// filesystem mirror and terraform init with any backend (NewInitCLI), in
// the foreground or as a background process a test can SIGKILL with its
// provider (Proc), with an http state backend on loopback (StateBackend).
//
// What the provider wrote. Record wraps factories so that every diagnostic
// the provider sends is kept in a Written; a CLI's provider process keeps
// them the same way (CLI.Written). Searches for a secret or a name belong
// there, not in the CLI's output, which also echoes the user's
// configuration. CheckErrorPath checks one failed command of an error-path
// test against them, for each row of ErrorRows: every API error class, with
// the status the API gives it, the class it must end as and the timeout its
// path gets (ErrorRow.Budget).
//
// Where acceptance tests run is the environment's choice, per backend
// (SelectTargets; Backends: HetznerCloud, HetznerRobot, ProxmoxVE, and
// the Registered backend of every other adapter in the provider's
// registry, whose variables its definition gives): the in-process
// emulators by default; with TF_ACC=1 and a backend's variables,
// the account they name (a real one, or the standalone emulator), while the
// tests of a backend whose variables are missing skip, naming them. Tests
// written with NewTarget (Hetzner Cloud) or NewTargetOn run against any of
// them, name what they create with NamePrefix and write the Target's
// account, which with Target.Labels on Hetzner Cloud gives every machine the
// backend's test mark; tests that need the emulator's own powers call
// NewEmulator, NewMetal or NewProxmox, which skip them elsewhere. Leftovers
// on a remote target are removed with `go test -sweep` (Sweep): managed
// machines with the prefix and the test mark, nothing else; on Robot a sweep
// releases the claim and never cancels a rental.
//
// It is imported by _test files only. It reaches remote targets through the
// provider's adapter registry, never a concrete adapter.
package acctest
