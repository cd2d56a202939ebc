package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
)

// profileEnv names the loopback address (such as 127.0.0.1:6060) on which a
// provider started with -debug serves Go's profiles (/debug/pprof/), for a
// look at where its memory goes while Terraform drives it (tools/bench). It
// is read in debug mode only, so a provider Terraform starts never listens,
// and the handlers live on their own mux, not on http.DefaultServeMux.
const profileEnv = "TF_COMPUTE_PPROF_ADDR"

// serveProfiles starts the profile server when profileEnv asks for one. An
// address that is not loopback is refused: the profiles show the process's
// memory, secrets included.
func serveProfiles(addr string) error {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s=%q: %w", profileEnv, addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%s=%q: profiles are served on a loopback address only, such as 127.0.0.1:6060", profileEnv, addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	fmt.Fprintf(os.Stderr, "profiles served at http://%s/debug/pprof/\n", ln.Addr())
	go func() { _ = http.Serve(ln, mux) }() //nolint:gosec // loopback, debug mode only
	return nil
}
