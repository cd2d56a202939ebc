// Package proxmox is the Proxmox VE adapter: QEMU virtual machines cloned
// from templates, reached through the PVE API (https://HOST:8006/api2/json)
// with an API token (Authorization: PVEAPIToken=USER@REALM!ID=SECRET).
//
// The client is the REST backends' own (internal/adapter/rest, configured
// in client.go), not luthermonson/go-proxmox or bpg's client, for the same
// reasons as the Robot adapter's: the contract's adapter.Retry must be the only retry
// layer (a vendor client retrying inside it multiplies waits on two
// clocks), every request needs its own bound (agent reads a short one of
// their own), classify must read the status line and the body together
// (PVE carries its message in the HTTP reason phrase), and the TLS trust
// must be ours: a pinned leaf fingerprint is checked during the handshake
// (tls.go), so a server with another certificate never receives a request,
// hence never the token.
//
// The three failures users of PVE fight are designed out here:
//
//   - VMID races: a machine's VMID is derived from its idempotency key
//     (slots.go), so two creates of one key meet at one VMID, where PVE's
//     own "already exists" decides, and creates of different keys rarely
//     share a slot (the probe moves on when they do);
//   - template lock timeouts: clones of one template are queued in the
//     process (a mutex per template VMID held until the clone task ends),
//     so this provider never contends for the template's lock file;
//   - plans hanging on the guest agent: a read asks the agent once, bounded
//     by agent_timeout, concurrently across a listing, and an agent that did
//     not answer is not asked again for a while (agent.go).
//
// The mark lives in the VM's description (written in the clone call
// itself) and its tags (compute, cm-c-<claim>, cm-unconfirmed while the
// claim is unconfirmed, cm-new until the first start): see marks.go.
//
// It may import the contract, internal/adapter/rest (its client),
// internal/adapter/marks (the description's and the tags' spellings),
// internal/adapter/sshexec (snippets over SFTP) and the standard library,
// never the Terraform plugin framework nor another adapter; the emulator
// is used by its tests alone.
package proxmox
