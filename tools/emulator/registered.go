package main

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/standalone"
)

// registered are the emulators served beside the three shipped ones, from
// their registrations: a backend adds its own with one line in a file of
// its own in this package (testbackend_NAME.go, with the testbackends
// build tag, for the backends kept in the tests), so two backends added
// apart never edit the same line; nothing else here, in the scripts or in
// internal/acctest names it.
var registered []standalone.Registration

// started is one registered emulator, running.
type started struct {
	name string
	standalone.Served
}

// startRegistered starts every registered emulator, and returns what
// stops them.
func startRegistered(cfg config) ([]started, func(), error) {
	var out []started
	stop := func() {
		for _, s := range out {
			if s.Stop != nil {
				s.Stop()
			}
		}
	}
	seen := map[string]bool{}
	for _, r := range registered {
		if seen[r.Name] {
			return nil, nil, fmt.Errorf("emulator %q registered twice; each backend registers once, in its own file", r.Name)
		}
		seen[r.Name] = true
	}
	for _, r := range registered {
		s, err := r.Start(standalone.Options{Latency: cfg.latency})
		if err != nil {
			stop()
			return nil, nil, fmt.Errorf("%s emulator: %w", r.Name, err)
		}
		out = append(out, started{name: r.Name, Served: s})
	}
	return out, stop, nil
}

// serve mounts the emulator's API on /NAME and its control API as it is,
// and prints "NAME URL" and "NAME-testacc VAR=VALUE ...", the variables an
// acceptance run reaches it with (standalone.Variable).
func (s started) serve(mux *http.ServeMux, root string, out io.Writer) {
	mux.Handle(s.Control+"/", s.Handler)
	mux.Handle("/"+s.name+"/", http.StripPrefix("/"+s.name, s.Handler))
	api := root + "/" + s.name + s.Base
	test := s.Test(api)
	vars := make([]string, 0, len(test))
	for _, k := range slices.Sorted(maps.Keys(test)) {
		vars = append(vars, standalone.Variable(s.name, k)+"="+test[k])
	}
	fmt.Fprintf(out, "%s %s\n%s-testacc %s\n", s.name, api, s.name, strings.Join(vars, " "))
}
