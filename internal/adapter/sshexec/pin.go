package sshexec

import (
	"bytes"
	"crypto/subtle"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Pin is what the host's key must be. Either Type and Fingerprint are set,
// as the backend announced the key (Robot: "ED25519" and "SHA256:…" or the
// legacy MD5 "aa:bb:…"), or PublicKey is, in authorized_keys form
// ("ssh-ed25519 AAAA…"), as learned over an earlier pinned session. There is
// no empty pin: a Target without one is refused, never trusted on first use.
type Pin struct {
	Type        string
	Fingerprint string
	PublicKey   string
	// AnyOf, when set, pins a host to any of these SHA256 fingerprints
	// ("SHA256:…"), whatever its key type: an account that lists the host
	// keys of every node of a cluster (Proxmox's ssh_host_keys) pins each
	// node to the list, never trusting one on first use.
	AnyOf []string
}

// HostKey is a key a host offered, in every form a message or a pin needs.
type HostKey struct {
	// Type is the SSH key type, "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256".
	Type string
	// SHA256 is "SHA256:…" (unpadded base64), MD5 the legacy "aa:bb:…".
	SHA256 string
	MD5    string
	// AuthorizedKey is the key in authorized_keys form, without a comment.
	AuthorizedKey string
}

func hostKeyOf(k ssh.PublicKey) HostKey {
	return HostKey{
		Type:          k.Type(),
		SHA256:        ssh.FingerprintSHA256(k),
		MD5:           ssh.FingerprintLegacyMD5(k),
		AuthorizedKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k))),
	}
}

// robotTypes maps the backend's key type names onto the SSH host key
// algorithms the client offers for them. Offering only the pinned type makes
// a host with several keys present the one that was announced, instead of
// the one it prefers.
var robotTypes = map[string][]string{
	"ED25519": {ssh.KeyAlgoED25519},
	"RSA":     {ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA},
	"ECDSA":   {ssh.KeyAlgoECDSA256, ssh.KeyAlgoECDSA384, ssh.KeyAlgoECDSA521},
}

// keyTypes maps SSH key types onto the backend's names.
var keyTypes = map[string]string{
	ssh.KeyAlgoED25519:  "ED25519",
	ssh.KeyAlgoRSA:      "RSA",
	ssh.KeyAlgoECDSA256: "ECDSA",
	ssh.KeyAlgoECDSA384: "ECDSA",
	ssh.KeyAlgoECDSA521: "ECDSA",
}

// checkedPin is a Pin validated once, at Dial, so that the key exchange only
// compares.
type checkedPin struct {
	pin        Pin
	typ        string // backend's name: ED25519, RSA, ECDSA
	algorithms []string
	key        ssh.PublicKey // when pinned by public key
	md5        bool          // Fingerprint is the legacy MD5 form
	anyOf      []string      // SHA256 fingerprints, for Pin.AnyOf
}

// checkPin validates p. Its errors are InvalidInput and name the part of
// the pin at fault; a pin is public, so it may be shown.
func checkPin(p Pin) (checkedPin, error) {
	if len(p.AnyOf) > 0 {
		var fps []string
		for _, f := range p.AnyOf {
			if !strings.HasPrefix(f, "SHA256:") || len(f) <= len("SHA256:") {
				return checkedPin{}, adapter.Errorf(adapter.InvalidInput, "the pinned host key fingerprint %q is not SHA256:…", f)
			}
			fps = append(fps, strings.TrimRight(f, "="))
		}
		return checkedPin{pin: p, anyOf: fps}, nil
	}
	if p.PublicKey != "" {
		key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(p.PublicKey))
		if err != nil {
			return checkedPin{}, adapter.Errorf(adapter.InvalidInput, "the pinned host key is not an authorized_keys line (%q); expected \"ssh-ed25519 AAAA…\"", p.PublicKey)
		}
		typ, ok := keyTypes[key.Type()]
		if !ok {
			return checkedPin{}, adapter.Errorf(adapter.InvalidInput, "the pinned host key has type %s; supported: ssh-ed25519, ssh-rsa, ecdsa-sha2-*", key.Type())
		}
		return checkedPin{pin: p, typ: typ, algorithms: robotTypes[typ], key: key}, nil
	}
	typ := strings.ToUpper(strings.TrimSpace(p.Type))
	algorithms, ok := robotTypes[typ]
	switch {
	case p.Type == "" && p.Fingerprint == "":
		return checkedPin{}, adapter.Errorf(adapter.InvalidInput, "no host key pin: a host is never trusted on first use; give the type and fingerprint the backend announced, or the public key learned earlier")
	case !ok:
		return checkedPin{}, adapter.Errorf(adapter.InvalidInput, "the pinned host key type %q is not known; expected ED25519, RSA or ECDSA", p.Type)
	case strings.HasPrefix(p.Fingerprint, "SHA256:") && len(p.Fingerprint) > len("SHA256:"):
		return checkedPin{pin: p, typ: typ, algorithms: algorithms}, nil
	case isMD5(p.Fingerprint):
		return checkedPin{pin: p, typ: typ, algorithms: algorithms, md5: true}, nil
	}
	return checkedPin{}, adapter.Errorf(adapter.InvalidInput, "the pinned host key fingerprint %q is neither SHA256:… nor the MD5 form aa:bb:…", p.Fingerprint)
}

// isMD5 reports whether s is sixteen colon-separated hex pairs.
func isMD5(s string) bool {
	parts := strings.Split(strings.TrimPrefix(s, "MD5:"), ":")
	if len(parts) != 16 {
		return false
	}
	for _, p := range parts {
		if len(p) != 2 || !isHex(p[0]) || !isHex(p[1]) {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// matches compares the offered key with the pin, in the pin's own form.
func (c checkedPin) matches(k ssh.PublicKey) bool {
	switch {
	case c.anyOf != nil:
		got := []byte(ssh.FingerprintSHA256(k))
		ok := false
		for _, f := range c.anyOf {
			ok = subtle.ConstantTimeCompare([]byte(f), got) == 1 || ok
		}
		return ok
	case c.key != nil:
		return bytes.Equal(c.key.Marshal(), k.Marshal())
	case keyTypes[k.Type()] != c.typ:
		return false
	case c.md5:
		want := strings.ToLower(strings.TrimPrefix(c.pin.Fingerprint, "MD5:"))
		return subtle.ConstantTimeCompare([]byte(want), []byte(ssh.FingerprintLegacyMD5(k))) == 1
	}
	// Base64 is case-sensitive; some tools keep the padding, OpenSSH drops it.
	want := strings.TrimRight(c.pin.Fingerprint, "=")
	return subtle.ConstantTimeCompare([]byte(want), []byte(ssh.FingerprintSHA256(k))) == 1
}

// expected says what the pin asks for, for messages.
func (c checkedPin) expected() string {
	if c.anyOf != nil {
		return "one of " + strings.Join(c.anyOf, ", ")
	}
	if c.key != nil {
		return c.key.Type() + " " + ssh.FingerprintSHA256(c.key)
	}
	return c.typ + " " + c.pin.Fingerprint
}

// offered says what the host offered, in SHA-256 and, when the pin is MD5,
// in MD5 too, so the two can be compared by eye.
func (c checkedPin) offered(k HostKey) string {
	s := k.Type + " " + k.SHA256
	if c.md5 {
		s += fmt.Sprintf(" (MD5 %s)", k.MD5)
	}
	return s
}
