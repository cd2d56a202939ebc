package adapter_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// plainSecrets fails with an error that is not the contract's, as a
// resolver of another kind might.
type plainSecrets struct{}

func (plainSecrets) Resolve(context.Context, string) (string, error) {
	return "", errors.New("vault sealed")
}

// A secret that resolves is returned as it is; one that does not is
// InvalidConfig on the field, naming the field, the reference and what is
// missing, never a value, and still Unresolved.
func TestResolveFieldNamesTheFieldAndTheReference(t *testing.T) {
	s := adapter.SecretResolver{Provider: map[string]string{"tok": "s3cr3t-value"}}
	v, err := adapter.ResolveField(context.Background(), s, "token", "provider://tok", "an existing secret")
	if err != nil || v != "s3cr3t-value" {
		t.Fatalf("resolved %q, %v", v, err)
	}
	_, err = adapter.ResolveField(context.Background(), s, "files[1].content", "provider://nope", "an existing secret")
	var e *adapter.Error
	if !errors.As(err, &e) || e.Code != adapter.InvalidConfig || e.Field != "files[1].content" || !adapter.Unresolved(err) {
		t.Fatalf("unresolved: %#v", err)
	}
	if !strings.HasPrefix(e.Message, "files[1].content: secret reference provider://nope: ") || !strings.Contains(e.Message, `no entry "nope"`) ||
		strings.Contains(e.Message, "s3cr3t") {
		t.Errorf("message %q", e.Message)
	}
}

// leakySecrets answers a value together with its error, as a careless
// resolver might: the value must not reach the message.
type leakySecrets struct{}

func (leakySecrets) Resolve(context.Context, string) (string, error) {
	return "s3cr3t-value", errors.New("vault sealed")
}

// Neither a value a failing resolver handed back nor a secret pasted where
// the reference belongs reaches a message.
func TestResolveFieldRepeatsNoSecret(t *testing.T) {
	const pasted = "hc_9f8A7b6C5d4E3f2G1h0iJkLmNoPq"
	_, err := adapter.ResolveField(context.Background(), leakySecrets{}, "token", pasted, "an existing secret")
	if err == nil || strings.Contains(err.Error(), "s3cr3t-value") || strings.Contains(err.Error(), pasted) {
		t.Errorf("resolve: %v", err)
	}
	if e := adapter.UnusableSecret("user", pasted, "holds a colon", "store the user alone"); strings.Contains(e.Error(), pasted) {
		t.Errorf("unusable: %v", e)
	}
}

// A resolver whose error is not the contract's gets the plain message,
// with the way out, and its error kept in the chain.
func TestResolveFieldOfAnotherResolver(t *testing.T) {
	_, err := adapter.ResolveField(context.Background(), plainSecrets{}, "ssh_private_key", "env://KEY", "the private key")
	var e *adapter.Error
	if !errors.As(err, &e) || e.Field != "ssh_private_key" || errors.Unwrap(err) == nil ||
		e.Message != "ssh_private_key: secret reference env://KEY cannot be resolved; check that it names the private key" {
		t.Errorf("%#v", err)
	}
}

func TestUnusableSecret(t *testing.T) {
	e := adapter.UnusableSecret("user", "env://U", "holds a colon", "store the user alone")
	if e.Code != adapter.InvalidConfig || e.Field != "user" || e.Message != "user: the value behind secret reference env://U holds a colon; store the user alone" {
		t.Errorf("%#v", e)
	}
}
