// Package sshexec runs the bootstrap's commands on a machine over SSH: one
// exec request per command, on a connection whose host key was checked
// against a pin before any credential was sent. It is the only place that
// speaks SSH for the adapters (golang.org/x/crypto/ssh), behind the small
// Dialer and Session interfaces, so the bootstrap's phase machine can be
// tested against a fake and the resource packages never see SSH.
//
// What it guarantees, and the tests prove:
//   - the host key is compared with the pin (an announced type and
//     fingerprint, or a known public key) during the key exchange, and the
//     private key is resolved (the Auth callback) only after it passed, so a
//     host that answers with another key sees no authentication attempt;
//   - every command is bounded by the caller's context and a per-command
//     timeout, and the connection by keepalives: a peer that stops answering
//     is detected and reported as Transient;
//   - secrets travel only on stdin: no env request is ever sent, and errors
//     name the caller's step, never the command line or its stdin;
//   - output is capped, so a runaway command cannot eat memory.
//
// Errors carry adapter codes: a host key mismatch and a refused login are
// AccessDenied, anything about reaching the host Transient (ErrUnreachable
// when nothing answers yet, ErrDropped when a connection died). It imports
// the contract (internal/adapter) and x/crypto/ssh, nothing else of the
// project.
package sshexec
