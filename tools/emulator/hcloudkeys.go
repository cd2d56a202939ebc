package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// defaultHcloudKeys are the project SSH keys the emulated Hetzner Cloud
// project holds at start: the names the examples' rescue_ssh_keys give, so
// the examples run against the emulator as they are written.
const defaultHcloudKeys = "ops,ci"

// seedHcloudKeys adds a project SSH key for each of the comma-separated
// names: the emulator's example keys for ops and ci, a fresh ed25519 key
// for any other name (only its name and id matter to a boot into rescue).
func seedHcloudKeys(e *hcloud.Emulator, list string) error {
	var names []string
	for n := range strings.SplitSeq(list, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		if slices.Contains(names, n) {
			return fmt.Errorf("-hcloud-ssh-keys names %q twice; give each key name once, such as %q", n, defaultHcloudKeys)
		}
		names = append(names, n)
	}
	for _, n := range names {
		public, err := publicKeyFor(n)
		if err != nil {
			return err
		}
		e.AddSSHKey(n, public)
	}
	return nil
}

func publicKeyFor(name string) (string, error) {
	switch name {
	case "ops":
		return hcloud.ExamplePublicKey, nil
	case "ci":
		return hcloud.ExampleCIPublicKey, nil
	}
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", fmt.Errorf("a key for %q: %w", name, err)
	}
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		return "", fmt.Errorf("a key for %q: %w", name, err)
	}
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k))) + " " + name + "@emulator", nil
}
