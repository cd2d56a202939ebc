// Package bootstrap is the compute_bootstrap_host resource: a dedicated
// machine, named by machine_id or taken from an offer, claimed like an
// instance (the key comes from the account's scope and the hostname), then
// turned into a host by the account adapter's Bootstrapper: rescue,
// identify, install with the files delivered over SSH stdin, reboot, ready.
// The phase reached, the host keys and the machine's identity are kept in
// state, so an apply that stops is resumed, never installed twice.
//
// Plan-time checks (validate.go) call the contract's bootstrap rules
// (adapter.CheckHostname and its siblings), which an adapter keeps too; an
// adapter may refuse more, and then does so at apply, after the claim. File contents (content_wo, and what a secret
// reference resolves to) never reach state, plan, logs or diagnostics.
//
// Its identity and list resource are compute_instance's kind: the account
// and the machine's id (internal/tfidentity), and the listing compute_machines
// shares (internal/tflist) shaped as hosts taken as they are (list.go).
//
// It imports internal/adapter, internal/tflist, internal/tfdiag,
// internal/tfidentity, internal/tfstate and internal/tftimeouts, never a
// concrete adapter: whether an account can bootstrap is its definition's
// capability.
package bootstrap
