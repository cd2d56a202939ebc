package rest

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Every wrong-endpoint diagnostic is put on the backend's own endpoint
// setting and names it in its way out, so a backend whose setting is not
// called "endpoint" gets its diagnostic on an attribute that exists.
func TestWrongEndpointNamesTheBackendsSetting(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "<html>login</html>")
	}))
	defer page.Close()
	moved := httptest.NewServer(http.RedirectHandler(page.URL+"/elsewhere", http.StatusFound))
	defer moved.Close()
	for name, endpoint := range map[string]string{
		"unsent":     "http://127.0.0.1:1 x",
		"redirected": moved.URL,
		"a web page": page.URL,
	} {
		r := newRig(t, endpoint, func(c *Config) { c.EndpointSetting = "api_url" })
		err := r.Get(t.Context(), "/a", nil)
		var e *adapter.Error
		if !errors.As(err, &e) || e.Code != adapter.InvalidConfig || e.Field != "api_url" || !strings.Contains(e.Message, "set api_url to") {
			t.Errorf("%s: got field %q: %v", name, adapter.FieldOf(err), err)
		}
	}
}
