package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// pve is the Proxmox VE emulator the command serves. PVE speaks https
// only, so it has its own TLS port on 127.0.0.1 with a certificate made at
// start (the printed fingerprint is the account's tls_fingerprint); its
// control API is also on the shared port, under /_emulator/proxmox.
type pve struct {
	e       *proxmox.Emulator
	url     string
	tokenID string
	secret  string
	keyPath string
	stop    func()
}

// startProxmox starts the emulator with the one token -proxmox-token
// names and writes the nodes' client key to -proxmox-ssh-key-out.
func startProxmox(cfg config) (*pve, error) {
	id, secret, ok := strings.Cut(cfg.proxmoxToken, "=")
	if !ok || !strings.Contains(id, "@") || !strings.Contains(id, "!") || secret == "" {
		return nil, fmt.Errorf("-proxmox-token %q: want USER@REALM!TOKENID=SECRET, as PVE shows a new API token", redactToken(cfg.proxmoxToken))
	}
	e, url, stop, err := proxmox.NewServer(context.Background(), proxmox.Options{
		Tokens: map[string]string{id: secret}, Latency: cfg.latency, SSHPort: cfg.proxmoxSSHPort,
		CloneDuration: cfg.proxmoxClone,
	})
	if err != nil {
		return nil, err
	}
	p := &pve{e: e, url: url, tokenID: id, secret: secret, stop: stop}
	if cfg.proxmoxSSHKeyOut != "" {
		key, _ := e.SSHClientKey()
		if err := writePrivate(cfg.proxmoxSSHKeyOut, key); err != nil {
			stop()
			return nil, fmt.Errorf("-proxmox-ssh-key-out %s: %w", cfg.proxmoxSSHKeyOut, err)
		}
		p.keyPath = cfg.proxmoxSSHKeyOut
	}
	return p, nil
}

// redactToken keeps a token's id and hides its secret in an error.
func redactToken(t string) string {
	if id, _, ok := strings.Cut(t, "="); ok {
		return id + "=…"
	}
	return "…"
}

// announce prints the Proxmox lines: the endpoint and certificate
// fingerprint, the token, the nodes' SSH port, client key and host keys.
func (p *pve) announce(out io.Writer) {
	_, fp := p.e.SSHClientKey()
	keyFile := p.keyPath
	if keyFile == "" {
		keyFile = "-"
	}
	pins := p.e.SSHHostKeys()
	names := make([]string, 0, len(pins))
	for n := range pins {
		names = append(names, n)
	}
	slices.Sort(names)
	list := make([]string, 0, len(names))
	for _, n := range names {
		list = append(list, pins[n])
	}
	fmt.Fprintf(out, "proxmox %s %s\nproxmox-token %s=%s\nproxmox-ssh %d\nproxmox-ssh-key %s %s\nproxmox-ssh-hostkeys %s\n",
		p.url, p.e.CertFingerprint(), p.tokenID, p.secret, p.e.SSHPort(), fp, keyFile, strings.Join(list, ","))
}

const defaultProxmoxToken = "root@pam!demo=demo-proxmox-secret"

var defaultProxmoxClone = proxmox.DefaultCloneDuration
