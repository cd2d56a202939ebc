package sshexec

import (
	"crypto/ed25519"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// fuzzKeys are two fixed host keys: the one a pin is tried against, and
// another that no pin naming the first may match.
func fuzzKeys(f *testing.F) (ssh.PublicKey, ssh.PublicKey) {
	var out []ssh.PublicKey
	for _, seed := range []byte{1, 2} {
		k, err := ssh.NewPublicKey(ed25519.NewKeyFromSeed(slices.Repeat([]byte{seed}, ed25519.SeedSize)).Public())
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, k)
	}
	return out[0], out[1]
}

// FuzzPin: whatever a pin holds (the type and fingerprint a backend
// announced, a public key, a list of fingerprints), it is refused as
// InvalidInput or matches a host key only when it names that very key:
// no pin is trusted on first use, and none matches two keys.
func FuzzPin(f *testing.F) {
	key, other := fuzzKeys(f)
	fp, md5 := ssh.FingerprintSHA256(key), ssh.FingerprintLegacyMD5(key)
	authorized := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key)))
	for _, s := range [][4]string{
		{"ED25519", fp, "", ""}, {"ed25519 ", fp + "=", "", ""}, {"ED25519", md5, "", ""}, {"ED25519", "MD5:" + strings.ToUpper(md5), "", ""},
		{"RSA", fp, "", ""}, {"", "", authorized, ""}, {"", "", authorized + " comment", ""}, {"", "", "", fp},
		{"", "", "", "SHA256:"}, {"", "", "", "SHA256:="}, {"ED25519", "SHA256:", "", ""}, {"", "", "", ""},
		{"ED25519", fp[:len(fp)-1], "", ""}, {"ECDSA", "", "ssh-ed25519 AAAA", ""},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, typ, fingerprint, publicKey, anyOf string) {
		p := Pin{Type: typ, Fingerprint: fingerprint, PublicKey: publicKey}
		if anyOf != "" {
			p.AnyOf = strings.Split(anyOf, ",")
		}
		c, err := checkPin(p)
		if err != nil {
			if !adapter.Is(err, adapter.InvalidInput) {
				t.Fatalf("pin %+v refused with %v, not InvalidInput", p, err)
			}
			return
		}
		if c.matches(key) && !names(p, key) {
			t.Fatalf("pin %+v matches %s %s, which it does not name", p, key.Type(), fp)
		}
		if c.matches(key) && c.matches(other) {
			t.Fatalf("pin %+v matches two keys", p)
		}
	})
}

// names says whether p names k in one of the forms a pin takes, read
// independently of checkPin: a fingerprint in the list, the public key
// itself, or the type and a fingerprint (SHA256, padded or not, or MD5 in
// either case).
func names(p Pin, k ssh.PublicKey) bool {
	fp := ssh.FingerprintSHA256(k)
	if len(p.AnyOf) > 0 {
		return slices.ContainsFunc(p.AnyOf, func(f string) bool { return strings.TrimRight(f, "=") == fp })
	}
	if p.PublicKey != "" {
		pk, _, _, _, err := ssh.ParseAuthorizedKey([]byte(p.PublicKey))
		return err == nil && string(pk.Marshal()) == string(k.Marshal())
	}
	return strings.EqualFold(strings.TrimSpace(p.Type), "ED25519") &&
		(strings.TrimRight(p.Fingerprint, "=") == fp || strings.ToLower(strings.TrimPrefix(p.Fingerprint, "MD5:")) == ssh.FingerprintLegacyMD5(k))
}
