package sshhost

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// shell runs command lines on one system. Each exec request gets its own
// (umask 022, $? 0), as each gets its own sh from sshd; sh F and sh -c
// run in a child that inherits the umask.
type shell struct {
	ctx     context.Context // killed when the session drops (detached: the boot)
	sys     *system
	in      io.Reader
	out     io.Writer
	err     io.Writer
	umask   fs.FileMode
	errexit bool
	last    int
	// session holds what the exec request's channel gave, so setsid -f
	// can tell session streams (gone once it drops) from files.
	session *stdio
	// rebooting is shared by a session's nested shells: reboot takes
	// effect after the session was told its exit status.
	rebooting *bool
}

type stdio struct {
	in  io.Reader
	out io.Writer
	err io.Writer
}

func newShell(ctx context.Context, sys *system, in io.Reader, out, errw io.Writer) *shell {
	return &shell{
		ctx: ctx, sys: sys, in: in, out: out, err: errw, umask: 0o022,
		session: &stdio{in, out, errw}, rebooting: new(bool),
	}
}

// child is the shell of sh F / sh -c: same session, own options and $?.
func (sh *shell) child(io stdio) *shell {
	return &shell{
		ctx: sh.ctx, sys: sh.sys, in: io.in, out: io.out, err: io.err, umask: sh.umask,
		session: sh.session, rebooting: sh.rebooting,
	}
}

func (sh *shell) runLine(line string) int {
	lists, err := parse(line)
	if err != nil {
		fmt.Fprintf(sh.err, "sh: 1: %v\n", err)
		return 2
	}
	return sh.runLists(lists)
}

func (sh *shell) runLists(lists []andList) int {
	status := 0
	for _, list := range lists {
		for _, c := range list {
			status = sh.runSimple(c)
			sh.last = status
			if status != 0 {
				break
			}
		}
		if sh.ctx.Err() != nil {
			return status
		}
		if sh.errexit && status != 0 {
			return status
		}
	}
	return status
}

func (sh *shell) runSimple(c simpleCmd) int {
	args := make([]string, len(c.words))
	for i, w := range c.words {
		args[i] = w.text
		if w.status {
			args[i] = strconv.Itoa(sh.last)
		}
	}
	io := stdio{sh.in, sh.out, sh.err}
	for _, r := range c.redirs {
		switch r.op {
		case ">", ">>":
			w, err := sh.openWrite(r.target, r.op == ">>")
			if err != nil {
				fmt.Fprintf(sh.err, "sh: 1: cannot create %s: %v\n", r.target, err)
				return 2
			}
			io.out = w
		case "<":
			data, err := sh.read(r.target)
			if err != nil {
				fmt.Fprintf(sh.err, "sh: 1: cannot open %s: %v\n", r.target, err)
				return 2
			}
			io.in = bytes.NewReader(data)
		case "2>&1":
			io.err = io.out
		}
	}
	return sh.run(io, args)
}

// run looks the command up, keeping it in the process table while it runs
// so pgrep sees it.
func (sh *shell) run(io stdio, args []string) int {
	name := args[0]
	if sh.sys.kind == stateInstalled {
		if strings.HasPrefix(name, "/usr/bin/") || strings.HasPrefix(name, "/bin/") {
			name = path.Base(name)
		}
	}
	cmd, ok := commands[name]
	if !ok || (sh.sys.kind == stateInstalled && rescueOnly[name]) {
		fmt.Fprintf(io.err, "sh: %s: not found\n", args[0])
		return 127
	}
	sh.sys.procStart(name)
	defer sh.sys.procEnd(name)
	return cmd(sh, io, args[1:])
}

func (s *system) procStart(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.procs[name]++
}

func (s *system) procEnd(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.procs[name]--
}

func (s *system) running(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.procs[name] > 0
}

// abs makes p absolute against root's home, where sshd starts commands.
func abs(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = "/root/" + p
	}
	return path.Clean(p)
}

// where finds the filesystem a path lives on: in rescue, /mnt reaches the
// installed disk once it is mounted; nil means /dev/null.
func (sh *shell) where(p string) (*fsys, string) {
	p = abs(p)
	if p == "/dev/null" {
		return nil, p
	}
	if sh.sys.kind == stateRescue && (p == "/mnt" || strings.HasPrefix(p, "/mnt/")) {
		m := sh.sys.m
		m.mu.Lock()
		d := m.disk.fs
		m.mu.Unlock()
		sh.sys.mu.Lock()
		mounted := sh.sys.mounted
		sh.sys.mu.Unlock()
		if mounted && d != nil {
			return d, clean(strings.TrimPrefix(p, "/mnt"))
		}
	}
	return sh.sys.root, p
}

func (sh *shell) read(p string) ([]byte, error) {
	f, rp := sh.where(p)
	if f == nil {
		return nil, nil
	}
	return f.readFile(rp)
}

func (sh *shell) stat(p string) (node, error) {
	f, rp := sh.where(p)
	if f == nil {
		return node{mode: 0o666}, nil
	}
	return f.stat(rp)
}

func (sh *shell) write(p string, data []byte, mode fs.FileMode, appendTo bool) error {
	f, rp := sh.where(p)
	if f == nil {
		return nil
	}
	return f.writeFile(rp, data, mode, appendTo)
}

// openWrite creates (or truncates) a file the way a redirection does, and
// returns a writer that appends to it as output arrives, so a log is
// readable while its command runs.
func (sh *shell) openWrite(p string, appendTo bool) (io.Writer, error) {
	if abs(p) == "/dev/null" {
		return io.Discard, nil
	}
	if err := sh.write(p, nil, 0o666&^sh.umask, appendTo); err != nil {
		return nil, err
	}
	return fileWriter{sh, p}, nil
}

type fileWriter struct {
	sh *shell
	p  string
}

func (w fileWriter) Write(b []byte) (int, error) {
	if err := w.sh.write(w.p, b, 0o666&^w.sh.umask, true); err != nil {
		return 0, err
	}
	return len(b), nil
}
