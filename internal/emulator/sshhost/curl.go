package sshhost

import (
	"context"
	"errors"
	"fmt"

	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// curlTimeout bounds one fetch, so a hung server cannot hold an install
// forever.
const curlTimeout = 60 * time.Second

// cmdCurl is curl -fsS --proto =https -o F URL through the farm's HTTP
// client. Only loopback hosts resolve (the emulated machines have no
// other network), and exit codes are curl's: 1 protocol refused, 6 host
// not resolved, 7 no connection, 22 HTTP error (-f), 23 write error.
func cmdCurl(sh *shell, io stdio, args []string) int {
	var out, rawURL string
	flags := map[string]bool{}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-fsS", "-f", "-s", "-S", "-sS", "-fs":
			for _, c := range a[1:] {
				flags[string(c)] = true
			}
		case "--proto":
			if i+1 == len(args) || args[i+1] != "=https" {
				return usage(io, "curl", args)
			}
			flags["proto"] = true
			i++
		case "-o":
			if i+1 == len(args) {
				return usage(io, "curl", args)
			}
			out = args[i+1]
			i++
		default:
			if strings.HasPrefix(a, "-") || rawURL != "" {
				return usage(io, "curl", args)
			}
			rawURL = a
		}
	}
	if out == "" || rawURL == "" {
		return usage(io, "curl", args)
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		fmt.Fprintf(io.err, "curl: (3) URL rejected: Malformed input to a URL function\n")
		return 3
	}
	if u.Scheme != "https" && (flags["proto"] || u.Scheme != "http") {
		fmt.Fprintf(io.err, "curl: (1) Protocol \"%s\" not supported or disabled in libcurl\n", u.Scheme)
		return 1
	}
	if !loopbackHost(u.Hostname()) {
		fmt.Fprintf(io.err, "curl: (6) Could not resolve host: %s\n", u.Hostname())
		return 6
	}
	ctx, cancel := context.WithTimeout(sh.ctx, curlTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		fmt.Fprintf(io.err, "curl: (3) URL rejected\n")
		return 3
	}
	resp, err := sh.sys.m.farm.opts.HTTPClient.Do(req)
	if err != nil {
		var nerr net.Error
		if errors.As(err, &nerr) && nerr.Timeout() {
			fmt.Fprintf(io.err, "curl: (28) Operation timed out\n")
			return 28
		}
		fmt.Fprintf(io.err, "curl: (7) Failed to connect to %s port %s\n", u.Hostname(), port(u))
		return 7
	}
	defer resp.Body.Close()
	if flags["f"] && resp.StatusCode >= 400 {
		fmt.Fprintf(io.err, "curl: (22) The requested URL returned error: %d\n", resp.StatusCode)
		return 22
	}
	w, err := sh.openWrite(out, false)
	if err != nil {
		fmt.Fprintf(io.err, "curl: (23) Failure writing output to destination\n")
		return 23
	}
	if err := copyCtx(sh, w, resp.Body); err != nil {
		fmt.Fprintf(io.err, "curl: (56) Failure when receiving data from the peer\n")
		return 56
	}
	return 0
}

func loopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.IsLoopback()
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}
