package hcloud

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The request log: one DEBUG line per HTTP attempt, written through the
// account's adapter.Logger (the provider's "hcloud" tflog subsystem).
//
// What a line holds is chosen so that it can hold no secret: the method,
// the route as a template (the path after the endpoint's base path, every
// id a placeholder, every segment that is not one of the API's own words a
// placeholder too), the status, the duration, the attempt and the API's
// correlation id. Never the query string (label selectors and names are
// user input), never a header value (the token) and never a body (user
// data); a request that got no answer logs the class of its failure, never
// the error's text, which quotes the whole URL.
//
// Two layers make it: logAttempts, outside authTransport, counts the
// attempts of one request (authTransport sends an unanswered GET, PUT or
// DELETE once more), and requestLog, between authTransport and the network,
// writes one line per attempt once its answer has been read to its end or
// has failed.

// logAttempts wraps the transport that resends, so each attempt below it
// knows its number.
func logAttempts(next http.RoundTripper) http.RoundTripper { return attemptCounter{next} }

type attemptCounter struct{ next http.RoundTripper }

type attemptKey struct{}

func (c attemptCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	return c.next.RoundTrip(req.WithContext(context.WithValue(req.Context(), attemptKey{}, new(atomic.Int32))))
}

// requestLog writes the line of each attempt that passes through it.
type requestLog struct {
	base http.RoundTripper
	log  adapter.Logger
	// prefix is the endpoint's own path ("/v1"), left out of routes: it
	// may hold a credential, and it is the same on every line.
	prefix string
}

func newRequestLog(base http.RoundTripper, log adapter.Logger, endpoint string) *requestLog {
	if log == nil {
		log = adapter.NopLogger{}
	}
	return &requestLog{base: base, log: log, prefix: basePath(endpoint)}
}

// apiPath is the path after the endpoint's own; a path outside it (which
// hcloud-go does not send) is templated whole.
func (t *requestLog) apiPath(p string) string {
	if rest, ok := strings.CutPrefix(p, t.prefix); ok && (rest == "" || rest[0] == '/') {
		return rest
	}
	return p
}

func (t *requestLog) RoundTrip(req *http.Request) (*http.Response, error) {
	attempt := 1
	if n, ok := req.Context().Value(attemptKey{}).(*atomic.Int32); ok {
		attempt = int(n.Add(1))
	}
	line := &requestLine{log: t.log, ctx: req.Context(), start: time.Now(), fields: map[string]any{
		"method":  req.Method,
		"route":   route(t.apiPath(req.URL.Path)),
		"attempt": strconv.Itoa(attempt) + "/" + strconv.Itoa(attempts(req)),
	}}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		line.write(err)
		return nil, err
	}
	line.fields["status"] = resp.StatusCode
	if id := correlationID(resp.Header); id != "" {
		line.fields["request_id"] = id
	}
	// The line waits for the body: the duration is the whole answer's, and
	// an answer that stops half-way is a failure worth its line.
	resp.Body = &loggedBody{ReadCloser: resp.Body, line: line}
	return resp, nil
}

// attempts is how often authTransport may send req: twice when it resends
// an unanswered one, which it does for idempotent methods whose body it can
// send again.
func attempts(req *http.Request) int {
	if idempotent(req.Method) && (req.Body == nil || req.Body == http.NoBody || req.GetBody != nil) {
		return 2
	}
	return 1
}

// requestLine is one attempt's line, written once.
type requestLine struct {
	log    adapter.Logger
	ctx    context.Context
	start  time.Time
	fields map[string]any
	once   sync.Once
}

func (l *requestLine) write(err error) {
	l.once.Do(func() {
		l.fields["duration"] = time.Since(l.start).Round(time.Microsecond).String()
		switch _, answered := l.fields["status"]; {
		case err != nil && answered:
			l.fields["error"] = "answer cut short: " + adapter.ErrorClass(err)
		case err != nil:
			l.fields["error"] = adapter.ErrorClass(err)
		}
		l.log.Debug(l.ctx, "API request", l.fields)
	})
}

// loggedBody writes the attempt's line when the answer has been read to its
// end, has failed, or is closed.
type loggedBody struct {
	io.ReadCloser
	line *requestLine
	err  error
}

func (b *loggedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		b.err = err
	}
	if err != nil {
		b.line.write(b.err)
	}
	return n, err
}

func (b *loggedBody) Close() error {
	err := b.ReadCloser.Close()
	b.line.write(b.err)
	return err
}

// apiWords are the path segments of the Hetzner Cloud API that a route
// keeps as they are; any other segment is a placeholder. An allow-list,
// not a deny-list: whatever a path may hold that is not the API's own
// vocabulary never reaches the log.
var apiWords = map[string]bool{
	"actions": true, "certificates": true, "datacenters": true, "firewalls": true,
	"floating_ips": true, "images": true, "isos": true, "load_balancer_types": true,
	"load_balancers": true, "locations": true, "metrics": true, "networks": true,
	"placement_groups": true, "pricing": true, "primary_ips": true, "server_types": true,
	"servers": true, "ssh_keys": true, "volumes": true,
}

// serverActions are the commands of POST /servers/{id}/actions/<command>
// that the adapter sends: a route keeps them, so the log tells a graceful
// shutdown from a hard power-off; any other command reads "{action}".
var serverActions = map[string]bool{
	"poweron": true, "poweroff": true, "shutdown": true, "reboot": true, "reset": true,
}

// route is the template of an API path: "/servers/42/actions/shutdown"
// reads "/servers/{id}/actions/shutdown", a command the adapter does not
// send reads "/servers/{id}/actions/{action}", "/servers/42/actions/7" reads
// "/servers/{id}/actions/{id}". The path is the one after the endpoint's
// base path; it carries no query.
func route(path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		switch {
		case s == "":
		case isID(s):
			segs[i] = "{id}"
		case i >= 2 && segs[i-1] == "actions" && segs[i-2] == "{id}":
			// /<resource>/{id}/actions/<command>: the adapter's own power
			// commands stay, any other is one placeholder. (segs[i-2] has
			// already become a placeholder.)
			if i < 3 || segs[i-3] != "servers" || !serverActions[s] {
				segs[i] = "{action}"
			}
		case apiWords[s]:
		default:
			segs[i] = "{value}"
		}
	}
	return strings.Join(segs, "/")
}

// isID: the API's ids are positive integers.
func isID(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// basePath is the endpoint's path without its trailing slash: what every
// request's path starts with.
func basePath(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(u.Path, "/")
}

// correlationID is the API's id for the request, for a support ticket; it
// is logged only when it looks like one, so a header that is not one does
// not reach the log.
func correlationID(h http.Header) string {
	id := h.Get("X-Correlation-Id")
	if id == "" || len(id) > 64 {
		return ""
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return ""
		}
	}
	return id
}
