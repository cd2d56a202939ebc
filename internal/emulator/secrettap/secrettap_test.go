package secrettap

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// TestNewJSON: the tap keeps the string at the path and nothing from an
// answer that holds none there, whatever else it holds.
func TestNewJSON(t *testing.T) {
	bodies := []string{
		`{"rescue":{"password":"s3cret"}}`,
		`{"rescue":{"password":null}}`,
		`{"rescue":"password"}`,
		`{"password":"top-level, not the path"}`,
		`not json`,
		`{"rescue":{"password":"again"},"other":1}`,
	}
	i := 0
	tap := NewJSON(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(bodies[i]))
	}), "rescue", "password")
	for i = range bodies {
		rec := httptest.NewRecorder()
		tap.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		if rec.Body.String() != bodies[i] {
			t.Fatalf("answer %d = %q, want it served unchanged", i, rec.Body.String())
		}
	}
	if got, want := tap.Seen(), []string{"s3cret", "again"}; !slices.Equal(got, want) {
		t.Fatalf("Seen() = %q, want %q", got, want)
	}
}
