package robot

import (
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
)

// An error answer that echoes the request's Authorization header (a proxy's
// or a debug page's) repeats the password in base64, which anyone can
// decode: neither that value nor the password reaches the error.
func TestEchoedBasicAuthIsWithheld(t *testing.T) {
	var echoed string
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		echoed = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"error":{"status":500,"code":"INTERNAL_ERROR","message":"rejected ` + echoed + `"}}`))
	})
	a := testAccount(t, echo, &adaptertest.Log{}, nil)
	_, err := a.Get(context.Background(), "50")
	encoded := base64.StdEncoding.EncodeToString([]byte(testUser + ":" + testPassword))
	// The sentinel: the header went out and was echoed, so the search
	// below has something to find.
	if err == nil || echoed != "Basic "+encoded {
		t.Fatalf("the echo saw %q and the call returned %v; the test needs an echoed header and an error", echoed, err)
	}
	for _, secret := range []string{encoded, testPassword} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("the error repeats %q: %v", secret, err)
		}
	}
}

// A value HTTP Basic cannot carry is refused naming the one cause found.
func TestUnsendableCredentialNamesItsCause(t *testing.T) {
	a := testAccount(t, http.NotFoundHandler(), &adaptertest.Log{}, nil)
	for ref, want := range map[string]string{"provider://colon_user": "holds a colon", "provider://broken_password": "holds a control character"} {
		a.c.secrets = adapter.SecretResolver{Provider: map[string]string{"colon_user": "a:b", "broken_password": "pass\n"}}
		setting := settingUser
		if strings.HasSuffix(ref, "password") {
			setting = settingPassword
		}
		_, err := a.c.resolve(context.Background(), setting, ref)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), " or ") {
			t.Errorf("%s: %v, want it to name only that it %s", ref, err, want)
		}
	}
}
