package adapter

import (
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
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return Errorf(InvalidConfig, "it is not a base URL (a base URL has no user part, query or fragment); use %s", example)
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
