package rest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A successful answer that is no JSON (a web page at a wrong endpoint)
// is InvalidConfig on the endpoint, even for a call that reads nothing of
// it; one that is JSON of another shape is Transient, the body not shown.
func TestAnswerThatIsNotTheAPI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/page" {
			_, _ = io.WriteString(w, "<html>login, echo sent-value</html>")
			return
		}
		_, _ = io.WriteString(w, `{"n":"sent-value"}`)
	}))
	defer srv.Close()
	r := newRig(t, srv.URL, nil)
	err := r.Post(t.Context(), "/page", nil, nil)
	var e *adapter.Error
	if !errors.As(err, &e) || e.Code != adapter.InvalidConfig || e.Field != "endpoint" || !strings.Contains(e.Message, "so it is not the Test API") {
		t.Errorf("page: %v", err)
	}
	var out struct{ N int }
	err = r.Get(t.Context(), "/json", &out)
	if code(err) != adapter.Transient || !strings.Contains(err.Error(), "field N has the wrong type") || strings.Contains(err.Error(), "sent-value") {
		t.Errorf("json: %v", err)
	}
	if r.classified.Load() != 2 {
		t.Errorf("%d failures handed to classify, want 2", r.classified.Load())
	}
}

// A transport failure goes to the backend's classify, which the default
// reading marks unreachable when nothing reached the API.
func TestTransportFailureGoesToClassify(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	r := newRig(t, "http://"+addr, nil)
	err = r.Get(t.Context(), "/servers/{id}", nil, "1")
	if code(err) != adapter.Transient || !adapter.Unreachable(err) || r.classified.Load() != 1 ||
		!strings.Contains(err.Error(), "could not be reached for /servers/{id}: connection refused") {
		t.Errorf("got %v (classified %d)", err, r.classified.Load())
	}
	if !strings.Contains(r.log.Text(), "Test request: GET /servers/{id} no answer (connection refused)") {
		t.Errorf("log:\n%s", r.log.Text())
	}
}

// Bodies: a form, or JSON, with their content types; an answer decoded
// through the backend's Decode.
func TestBodiesAndDecode(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		_, _ = io.WriteString(w, `{"data":{"got":"`+req.Header.Get("Content-Type")+` `+strings.ReplaceAll(string(b), `"`, `'`)+`"}}`)
	}))
	defer srv.Close()
	r := newRig(t, srv.URL, func(c *Config) {
		c.Decode = func(body []byte, out any) error {
			var env struct{ Data json.RawMessage }
			if err := json.Unmarshal(body, &env); err != nil {
				return err
			}
			return json.Unmarshal(env.Data, out)
		}
	})
	var out struct{ Got string }
	if err := r.Post(t.Context(), "/f", map[string][]string{"b": {"2"}, "a[]": {"1", "x y"}}, &out); err != nil {
		t.Fatal(err)
	}
	if out.Got != "application/x-www-form-urlencoded a%5B%5D=1&a%5B%5D=x+y&b=2" {
		t.Errorf("form: %q", out.Got)
	}
	if err := r.Do(context.Background(), Call{Method: http.MethodPut, Route: "/j", JSON: map[string]int{"n": 1}}, &out); err != nil {
		t.Fatal(err)
	}
	if out.Got != "application/json {'n':1}" {
		t.Errorf("json: %q", out.Got)
	}
}

// A short credential withheld from a JSON body leaves the document as the
// API wrote it, keys and all; only the strings that repeat it change.
func TestShortCredentialLeavesTheBodyReadable(t *testing.T) {
	body := withholdBody([]byte(`{"error":{"code":"UNAUTHORIZED","message":"user e refused","status":401}}`), []string{"e"})
	var env struct {
		Error struct {
			Code, Message string
			Status        int
		}
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Error.Status != 401 ||
		env.Error.Code != "UNAUTHORIZED" || env.Error.Message != "us(withheld)r (withheld) r(withheld)fus(withheld)d" {
		t.Errorf("got %s (%v)", body, err)
	}
	if got := string(withholdBody([]byte("<p>token e</p>"), []string{"e"})); got != "<p>tok(withheld)n (withheld)</p>" {
		t.Errorf("page: %s", got)
	}
}
