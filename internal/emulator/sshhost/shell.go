package sshhost

import (
	"context"
	"fmt"
	"io"
)

type shell struct {
	ctx       context.Context
	sys       *system
	in        io.Reader
	out, err  io.Writer
	rebooting bool
}

func newShell(ctx context.Context, sys *system, in io.Reader, out, errw io.Writer) *shell {
	return &shell{ctx: ctx, sys: sys, in: in, out: out, err: errw}
}

func (sh *shell) runLine(line string) int {
	fmt.Fprintf(sh.err, "sh: %s: not found\n", line)
	return 127
}

func (s *system) running(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.procs[name] > 0
}
