package hcloud

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestTokenNeverFollowsARedirect: an endpoint that answers with a redirect
// (a misconfigured proxy, a hijacked host) must not receive the token at
// the place it points to. The transport sets the token on every request it
// carries, so a followed redirect would carry it to any host; redirects are
// refused instead, on the endpoint setting.
func TestTokenNeverFollowsARedirect(t *testing.T) {
	var leaked atomic.Value
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"server":{"id":1,"name":"x"}}`))
	}))
	t.Cleanup(elsewhere.Close)
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(endpoint.Close)

	a := newTestAccount(t, endpoint.URL+"/v1")
	_, err := a.Get(ctxT(t), "1")
	if v, _ := leaked.Load().(string); v != "" {
		t.Fatalf("the redirect target received the Authorization header %q", v)
	}
	checkClassified(t, err, adapter.InvalidConfig, "endpoint", []string{"redirect", endpoint.URL + "/v1"})
}
