package adapter

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

const sentinel = "SENTINEL-tok-3b9f1c"

func TestParseRef(t *testing.T) {
	ok := []string{"env://HCLOUD_TOKEN", "env://_x1", "file:///run/secrets/token", "provider://hcloud"}
	for _, ref := range ok {
		if _, _, err := ParseRef(ref); err != nil {
			t.Errorf("%s: %v", ref, err)
		}
	}
	bad := []string{"", sentinel, "env://", "env://1ABC", "env://A-B", "file://relative", "file:///", "provider://", "vault://x", "https://example.com"}
	for _, ref := range bad {
		_, _, err := ParseRef(ref)
		if !Is(err, InvalidConfig) {
			t.Errorf("%q: err=%v, want InvalidConfig", ref, err)
		}
	}
	// A pasted token must never be printed back.
	_, _, err := ParseRef(sentinel)
	if strings.Contains(err.Error(), sentinel) {
		t.Fatalf("error echoes the value: %v", err)
	}
}

func TestSecretResolver(t *testing.T) {
	r := SecretResolver{
		Provider: map[string]string{"hcloud": sentinel, "empty": ""},
		LookupEnv: func(k string) (string, bool) {
			if k == "TOKEN" {
				return sentinel, true
			}
			return "", false
		},
		ReadFile: func(p string) ([]byte, error) {
			if p == "/secret" {
				return []byte(sentinel + "\n"), nil
			}
			return nil, os.ErrNotExist
		},
	}
	for _, ref := range []string{"env://TOKEN", "file:///secret", "provider://hcloud"} {
		v, err := r.Resolve(context.Background(), ref)
		if err != nil || v != sentinel {
			t.Errorf("%s: %q %v", ref, v, err)
		}
	}
	for ref, reason := range map[string]string{
		"env://MISSING":    "not set",
		"file:///nope":     "does not exist",
		"provider://other": "no entry",
		"provider://empty": "empty",
	} {
		_, err := r.Resolve(context.Background(), ref)
		if !Is(err, InvalidConfig) || !strings.Contains(err.Error(), ref) || !strings.Contains(err.Error(), reason) {
			t.Errorf("%s: err=%v, want InvalidConfig naming the reference and %q", ref, err, reason)
		}
		if !Unresolved(err) {
			t.Errorf("%s: err=%v does not say that the reference is unresolved here", ref, err)
		}
		if strings.Contains(err.Error(), sentinel) {
			t.Errorf("%s: error leaks the secret", ref)
		}
	}
	// A malformed reference is refused, not unresolved: no environment can
	// resolve it.
	_, err := r.Resolve(context.Background(), "vault://somewhere")
	if !Is(err, InvalidConfig) || Unresolved(err) || !strings.Contains(err.Error(), `vault://…: scheme "vault" is not known`) {
		t.Errorf("vault://somewhere: err=%v", err)
	}
}

func TestSecretResolverDefaultsToEnvironment(t *testing.T) {
	t.Setenv("COMPUTE_TEST_SECRET", sentinel)
	v, err := SecretResolver{}.Resolve(context.Background(), "env://COMPUTE_TEST_SECRET")
	if err != nil || v != sentinel {
		t.Fatalf("%q %v", v, err)
	}
}

func TestCodeOf(t *testing.T) {
	wrapped := errors.Join(errors.New("ctx"), Errorf(NotFound, "gone"))
	if !IsNotFound(wrapped) {
		t.Error("a wrapped NotFound must stay NotFound")
	}
	if CodeOf(errors.New("boom")) != Transient {
		t.Error("an unclassified error is Transient, never absence")
	}
	if CodeOf(context.DeadlineExceeded) != Transient || IsNotFound(context.Canceled) {
		t.Error("context errors are Transient")
	}
	e := Errorf(InvalidInput, "bad").WithField("offer_id")
	if FieldOf(e) != "offer_id" || e.Error() != "InvalidInput: bad" {
		t.Errorf("field %q error %q", FieldOf(e), e.Error())
	}
}

// TestTokenShapedNamesAreNotReferences: a secret pasted as a reference's
// name is refused and never repeated; names people give are accepted, and
// so is any absolute file path, whose directories may look like a token.
func TestTokenShapedNamesAreNotReferences(t *testing.T) {
	for _, ref := range []string{
		"env://Hx7Qv2Lr9dKq4WmZ8vTnB3yHfJ6sPc1aGuE5oNiX",
		"env://0123456789abcdef0123456789abcdef",
		"provider://" + strings.Repeat("a", 41),
		"provider://Hx7Qv2Lr9dKq4WmZ8vTnB3y",
		"file://Hx7Qv2Lr9dKq4WmZ8vTnB3yHfJ6sPc1aGuE5oNiX",
	} {
		_, _, err := ParseRef(ref)
		if err == nil || strings.Contains(err.Error(), ref[strings.Index(ref, "://")+3:]) {
			t.Errorf("ParseRef(%q) = %v, want a refusal that does not repeat the name", ref, err)
		}
		if strings.Contains(Redacted(ref), ref[strings.Index(ref, "://")+3:]) {
			t.Errorf("Redacted(%q) = %q repeats the name", ref, Redacted(ref))
		}
	}
	for _, ref := range []string{"env://HCLOUD_TOKEN", "env://HCLOUD_TOKEN_PROD_2", "provider://hcloud", "file:///run/secrets/hcloud-token", "env://hcloudToken",
		"file:///tmp/TestRobotBootstrapInstallsFromSSH1234567890/001/id_ed25519",
		"file:///run/secrets/Hx7Qv2Lr9dKq4WmZ8vTnB3y",
		"file:///home/ci/" + strings.Repeat("0123456789abcdef", 3) + "/token",
	} {
		if _, _, err := ParseRef(ref); err != nil {
			t.Errorf("ParseRef(%q): %v, want accepted", ref, err)
		}
	}
	if plainHost("Hx7Qv2Lr9dKq4WmZ8vTnB3yHfJ6sPc1aGuE5oNiX") || !plainHost("api.hetzner.cloud") || !plainHost("127.0.0.1:8080") {
		t.Error("plainHost must refuse a token-shaped host and accept real ones")
	}
}
