package adapter

import (
	"bytes"
	"net"
	"net/url"
	"strings"
)

// CheckBaseURL is the rule every adapter's endpoint setting keeps: https
// anywhere, plain http only to a loopback host (an emulator), so a
// credential is never sent in clear text over a network; no user part,
// query or fragment. credential names what would travel with the request
// ("the API token", "the password") and source the settings it comes from;
// example is a base URL to suggest. Messages never repeat the value, which
// callers show redacted (Redacted): a user part, path, query or fragment
// may hold a credential.
func CheckBaseURL(v, credential, source, example string) error {
	u, err := url.Parse(v)
	if err == nil && u.User != nil {
		return Errorf(InvalidConfig, "the endpoint carries credentials (user@ or user:password@); remove them, %s comes from %s", credential, source)
	}
	switch {
	case err != nil || u.Scheme == "" || u.Opaque != "":
		return Errorf(InvalidConfig, "it is not a URL with a scheme and a host; use %s", example)
	case u.Host == "":
		return Errorf(InvalidConfig, "it names no host; use %s", example)
	case u.RawQuery != "" || u.Fragment != "":
		return Errorf(InvalidConfig, "it is not a base URL (a base URL has no query or fragment); use %s", example)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if IsLoopbackHost(u.Hostname()) {
			return nil
		}
		return Errorf(InvalidConfig, "it uses plain http to a host that is not loopback, which would send %s unencrypted; use https, or http only to 127.0.0.1, ::1 or localhost", credential)
	}
	return Errorf(InvalidConfig, "it has scheme %s; use https (or http to a loopback host)", Quoted(Redacted(u.Scheme)))
}

// IsLoopbackHost reports whether host is localhost or a loopback address.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CanonicalEndpoint is an endpoint as the contract compares it: scheme and
// host in lower case, the scheme's default port dropped, and no trailing
// slash, so that "HTTPS://API.example.com:443/v1/" and
// "https://api.example.com/v1" are one endpoint, in account ids and in the
// scope idempotency keys are derived from. Other differences (localhost for
// 127.0.0.1, a new DNS name) are not guessed at: they name another endpoint
// until a read proves it reaches the same machines (ReachedThrough). A value
// that is not a URL is returned as it is, for its setting's Check to refuse.
func CanonicalEndpoint(v string) string {
	u, err := url.Parse(v)
	// Without a scheme or a host name ("//://a", "https://:") a URL is
	// not an endpoint, and rewriting it would change it again each time.
	if err != nil || u.Scheme == "" || u.Hostname() == "" || u.Opaque != "" {
		return v
	}
	u.Scheme = strings.ToLower(u.Scheme)
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	u.Host = host
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = strings.TrimRight(u.RawPath, "/")
	return u.String()
}

// NotJSON reports whether an answer's body can be no JSON document at all:
// it is not empty and begins with neither '{' nor '['. An HTML page (a
// web site at a mistyped host, a proxy's login page, a captive portal) is
// such a body, and every API of the contract answers JSON, so a successful
// answer with it comes from a wrong endpoint. A JSON document cut short is
// not such a body: losing an answer's end is an outage, retried as one.
func NotJSON(body []byte) bool {
	b := bytes.TrimSpace(body)
	return len(b) > 0 && b[0] != '{' && b[0] != '['
}

// NotTheAPI is the error for a successful answer whose body is NotJSON:
// InvalidConfig on the endpoint setting, at once, since retrying a page
// that is not the API until the timeout cannot help. setting is that
// setting's name (the Definition's RoleEndpoint setting), api names the
// API ("the Hetzner Cloud API"), endpoint is the setting's value as
// messages show it (Redacted), route the request's path template and
// example a base URL to suggest.
func NotTheAPI(setting, api, endpoint, example, method, route string, status int) *Error {
	return Errorf(InvalidConfig,
		"the endpoint %s answered %s %s with HTTP %d and a body that is not JSON (a web page, such as a proxy's login page or a captive portal sends), so it is not %s; "+
			"set %s to the API's base URL, such as %s",
		endpoint, method, route, status, api, setting, example).WithField(setting)
}

// ListingFailed is the wrong-endpoint guard of a listing, for an error the
// backend's fail has classified: a listing proves no machine's absence, so
// a NotFound from one means that the endpoint does not serve the API (a
// base URL where every path is not found) and is InvalidConfig on the
// endpoint setting, never absence (rule 3, authoritative absence). setting
// is the name of that setting (the Definition's RoleEndpoint setting), api
// names the API and example a base URL to suggest.
func ListingFailed(err error, setting, api, example string) error {
	if e, ok := err.(*Error); ok && e.Code == NotFound {
		e.Code, e.Field = InvalidConfig, setting
		e.Message += "; the endpoint does not serve " + api + ": check that it is its base URL, such as " + example
	}
	return err
}
