package faults

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// TestPage: pages cut in order, the next number until the last, and a
// page past the end empty.
func TestPage(t *testing.T) {
	items := []int{1, 2, 3, 4, 5}
	for _, c := range []struct {
		page, size, next int
		want             []int
	}{
		{0, 2, 2, []int{1, 2}}, {1, 2, 2, []int{1, 2}}, {2, 2, 3, []int{3, 4}}, {3, 2, 0, []int{5}},
		{9, 2, 0, []int{}}, {1, 5, 0, items}, {1, 50, 0, items},
	} {
		got, next := Page(items, c.page, c.size)
		if !slices.Equal(got, c.want) || next != c.next {
			t.Errorf("Page(page %d, size %d) = %v, next %d; want %v, next %d", c.page, c.size, got, next, c.want, c.next)
		}
	}
}

// TestPageSize: the API's size, unless a test set a smaller limit.
func TestPageSize(t *testing.T) {
	m := New(http.NotFoundHandler(), Config{})
	if got := m.PageSize(50); got != 50 {
		t.Errorf("without a limit: %d, want 50", got)
	}
	m.SetMaxPageSize(1)
	if got := m.PageSize(50); got != 1 {
		t.Errorf("with limit 1: %d, want 1", got)
	}
	m.SetMaxPageSize(80)
	if got := m.PageSize(50); got != 50 {
		t.Errorf("with limit 80: %d, want 50", got)
	}
}

// TestWriteError: an API's own error reads as a scripted one.
func TestWriteError(t *testing.T) {
	m := New(http.NotFoundHandler(), Config{})
	w := httptest.NewRecorder()
	m.WriteError(w, http.StatusConflict, "busy", `say "why"`)
	if w.Code != http.StatusConflict || w.Header().Get("Content-Type") != "application/json" ||
		w.Body.String() != `{"error":{"code":"busy","message":"say \"why\""}}` {
		t.Errorf("got %d %q %s", w.Code, w.Header().Get("Content-Type"), w.Body)
	}
}

// TestCodesRenamed: Config.Codes renames a generic code wherever an error
// body is written, in the API's own answer and in a scripted fault with
// the default code alike, and leaves a code it does not name as given.
func TestCodesRenamed(t *testing.T) {
	m := New(http.NotFoundHandler(), Config{Codes: map[string]string{"not_found": "server_not_found", "server_error": "boom"}})
	for code, want := range map[string]string{"not_found": "server_not_found", "auth_failed": "auth_failed"} {
		w := httptest.NewRecorder()
		m.WriteError(w, http.StatusNotFound, code, "m")
		if got := w.Body.String(); got != `{"error":{"code":"`+want+`","message":"m"}}` {
			t.Errorf("WriteError(%s) wrote %s, want the code %s", code, got, want)
		}
	}
	if err := m.AddRule(Rule{Status: 500}); err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	m.ServeHTTP(w, httptest.NewRequest("GET", "/servers/1", nil))
	if w.Code != 500 || !strings.Contains(w.Body.String(), `"code":"boom"`) {
		t.Errorf("a scripted 500 answered %d %s, want the code boom", w.Code, w.Body)
	}
}
