package conformance

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// An endpoint that is not the API at all (a mistyped host that serves a web
// site, a proxy's error page, a path that answers 404 to everything) must
// never read as NotFound: the Terraform layer drops a machine from state on
// NotFound, so a typo in an endpoint would forget every machine of the
// account at the next refresh. Only the API's own answer that a machine is
// gone is absence; a 404 without the API's error shape is a wrong endpoint.
//
// Nor is such an endpoint an outage: retrying it until the timeout cannot
// help, so an answer that cannot be the API's (a 404 without its error, an
// HTML page even with 200, as a proxy's login page or a captive portal
// sends) is InvalidConfig on the endpoint setting, at once.

// impostor is a server that is not the API, by what every route answers.
type impostor struct {
	name        string
	status      int
	contentType string
	body        string
	// mayBeTheAPI: the answer is JSON another API (or this one, for a
	// mistyped path) could send, which the adapter may not tell from a
	// failure of its own API: only absence is ruled out.
	mayBeTheAPI bool
}

var impostors = []impostor{
	{"every route answers 404 with an empty body", http.StatusNotFound, "", "", false},
	{"every route answers 404 with an HTML page", http.StatusNotFound, "text/html; charset=utf-8",
		"<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>", false},
	{"every route answers 200 with an HTML page", http.StatusOK, "text/html; charset=utf-8",
		"<!DOCTYPE html><html><head><title>Welcome</title></head><body><p>It works!</p></body></html>", false},
	{"every route answers 404 with another API's JSON", http.StatusNotFound, "application/json",
		`{"message":"Not Found","documentation_url":"https://docs.example.com/rest"}`, true},
}

func (i impostor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if i.contentType != "" {
		w.Header().Set("Content-Type", i.contentType)
	}
	w.WriteHeader(i.status)
	_, _ = w.Write([]byte(i.body))
}

// endpointNotTheAPI points an adapter for the target's account at each
// impostor and makes every call that reads or removes a machine: each must
// fail, and none as NotFound or as a delete of a machine already gone.
func endpointNotTheAPI(t *testing.T, s *suite) {
	if s.ServeImpostor == nil {
		t.Skip("the target cannot serve an impostor endpoint")
	}
	all := impostors
	if u := s.UnknownRoute; u != nil {
		all = append(all[:len(all):len(all)], impostor{"every route answers the API's own answer for an unknown path", u.Status, "application/json", u.Body, true})
	}
	missing := s.missing(t)
	// The diagnostic belongs on the setting that holds the endpoint,
	// whatever the backend calls it.
	endpoint, _ := s.Definition.Setting(adapter.RoleEndpoint)
	reached := 0
	for _, imp := range all {
		t.Run(imp.name, func(t *testing.T) {
			settings := s.ServeImpostor(t, imp)
			norm, err := s.Definition.Normalize(settings, nil)
			if err != nil {
				// Refused before any request: nothing can read as absence.
				return
			}
			a, err := s.Definition.New(norm, s.Env)
			if err != nil {
				return
			}
			reached++
			for _, c := range impostorCalls(a, missing) {
				err := c.run(s.ctx(t))
				switch {
				case err == nil:
					t.Errorf("%s(%s) against an endpoint where %s: succeeded, want an error that says the endpoint is not the API", c.what, missing, imp.name)
				case adapter.IsNotFound(err):
					t.Errorf("%s(%s) against an endpoint where %s: NotFound (%v); a machine in state would be forgotten", c.what, missing, imp.name, err)
				case imp.mayBeTheAPI:
				case !adapter.Is(err, adapter.InvalidConfig) || adapter.FieldOf(err) != endpoint.Name:
					t.Errorf("%s(%s) against an endpoint where %s: %v (field %q); want InvalidConfig on the endpoint setting at once, not an outage to retry", c.what, missing, imp.name, err, adapter.FieldOf(err))
				}
			}
		})
	}
	// An adapter that refuses every impostor's settings made no call, and
	// the subtests above passed without checking anything.
	if reached == 0 {
		t.Fatalf("the adapter refused the settings of all %d impostor endpoints, so no call reached one; ServeImpostor's settings must be ones the adapter accepts", len(all))
	}
}

// impostorCall is one call that reads or removes a machine.
type impostorCall struct {
	what string
	run  func(ctx context.Context) error
}

// impostorCalls are the calls of a that read or remove machine id: Get,
// Delete, and List and Check where a offers them.
func impostorCalls(a adapter.Adapter, id string) []impostorCall {
	calls := []impostorCall{
		{"Get", func(ctx context.Context) error { _, err := a.Get(ctx, id); return err }},
		{"Delete", func(ctx context.Context) error { return a.Delete(ctx, id) }},
	}
	if l, ok := a.(adapter.Lister); ok {
		calls = append(calls, impostorCall{"List", func(ctx context.Context) error { _, err := l.List(ctx); return err }})
	}
	if c, ok := a.(adapter.Checker); ok {
		calls = append(calls, impostorCall{"Check", c.Check})
	}
	return calls
}

// PointAt returns a copy of settings whose endpoint setting (named key)
// has base's scheme and host and keeps its own path, for ServeImpostor.
func PointAt(t *testing.T, settings map[string]string, key, base string) map[string]string {
	t.Helper()
	to, err := url.Parse(base)
	if err != nil {
		t.Fatalf("PointAt %q: %v", base, err)
	}
	out := maps.Clone(settings)
	from, err := url.Parse(settings[key])
	if err != nil {
		t.Fatalf("PointAt: setting %s %q: %v", key, settings[key], err)
	}
	from.Scheme, from.Host = to.Scheme, to.Host
	out[key] = from.String()
	return out
}
