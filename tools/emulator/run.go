package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

type config struct {
	listen        string
	latency       time.Duration
	token         string
	readOnlyToken string
}

// api is one emulated API on the shared port. mount is its path prefix
// on the port ("" for the root); base is where its API starts below that,
// so the printed URL is the server URL + mount + base.
type api struct {
	name    string
	mount   string
	base    string
	handler http.Handler
}

// apis lists the emulators the command serves. The Hetzner Cloud emulator
// owns the root, so its control API is /_emulator/...; emulators added
// later take a mount of their own.
func apis(cfg config) []api {
	return []api{
		{name: "hcloud", base: hcloud.BasePath, handler: hcloud.New(hcloud.Options{Token: cfg.token, ReadOnlyToken: cfg.readOnlyToken, Latency: cfg.latency})},
	}
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	fs.StringVar(&cfg.listen, "listen", "127.0.0.1:0", "loopback `address` to listen on; port 0 picks a free one")
	fs.DurationVar(&cfg.latency, "latency", 0, "delay before every API request reaches the API; a request whose client gives up meanwhile is not served")
	fs.StringVar(&cfg.token, "token", "demo-token", "bearer `token` the Hetzner Cloud API accepts")
	fs.StringVar(&cfg.readOnlyToken, "read-only-token", "", "a second bearer `token` that may only read: every other request is refused with 403 forbidden, as a read-only API token is")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return cfg, checkLoopback(cfg.listen)
}

// checkLoopback refuses any listen address that is not loopback: the
// emulators accept a demo token and must not be reachable from a network.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-listen %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	if host == "" {
		host = "every interface"
	}
	return fmt.Errorf("-listen %q: refusing to listen on %s; use a loopback address such as 127.0.0.1:8080 or [::1]:8080", addr, host)
}

// run serves the emulators until ctx ends. It writes one "NAME URL" line
// per API to stdout once the port is open, so a caller can read the URLs
// before making requests.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	var usage strings.Builder
	cfg, err := parseFlags(args, &usage)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			_, _ = io.WriteString(stdout, usage.String())
		}
		return err
	}
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	root := "http://" + ln.Addr().String()
	out := bufio.NewWriter(stdout)
	for _, a := range apis(cfg) {
		if a.mount == "" {
			mux.Handle("/", a.handler)
		} else {
			mux.Handle(a.mount+"/", http.StripPrefix(a.mount, a.handler))
		}
		fmt.Fprintf(out, "%s %s%s%s\n", a.name, root, a.mount, a.base)
	}
	if err := out.Flush(); err != nil {
		_ = ln.Close()
		return err
	}

	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
