package sshhost

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
)

// The filesystem errors, worded as coreutils words them after "CMD: PATH: ".
var (
	errNotExist = errors.New("No such file or directory")
	errIsDir    = errors.New("Is a directory")
	errNotDir   = errors.New("Not a directory")
	errExist    = errors.New("File exists")
)

type node struct {
	dir  bool
	link string // symlink target when set
	data []byte
	mode fs.FileMode // permission bits only
}

// fsys is an in-memory filesystem of cleaned absolute paths. Symlinks are
// followed within the same filesystem, which is all the wants directory
// of systemd needs.
type fsys struct {
	mu    sync.Mutex
	nodes map[string]*node
}

func newFS(dirs ...string) *fsys {
	f := &fsys{nodes: map[string]*node{"/": {dir: true, mode: 0o755}}}
	for _, d := range dirs {
		_ = f.mkdirAll(d, 0o755)
	}
	return f
}

func clean(p string) string { return path.Clean("/" + p) }

// resolveLocked follows symlinks on the last element (at most 8 hops).
func (f *fsys) resolveLocked(p string) (string, *node) {
	for range 8 {
		n := f.nodes[p]
		if n == nil || n.link == "" {
			return p, n
		}
		t := n.link
		if !strings.HasPrefix(t, "/") {
			t = path.Join(path.Dir(p), t)
		}
		p = clean(t)
	}
	return p, nil
}

func (f *fsys) parentOK(p string) error {
	_, par := f.resolveLocked(path.Dir(p))
	if par == nil {
		return errNotExist
	}
	if !par.dir {
		return errNotDir
	}
	return nil
}

func (f *fsys) mkdirAll(p string, mode fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	p = clean(p)
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := "/"
	for _, part := range parts {
		if part == "" {
			continue
		}
		cur = path.Join(cur, part)
		_, n := f.resolveLocked(cur)
		switch {
		case n == nil:
			f.nodes[cur] = &node{dir: true, mode: mode}
		case !n.dir:
			return errExist
		}
	}
	return nil
}

// stat follows symlinks and returns a copy of the node.
func (f *fsys) stat(p string) (node, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, n := f.resolveLocked(clean(p))
	if n == nil {
		return node{}, errNotExist
	}
	c := *n
	c.data = slices.Clone(n.data)
	return c, nil
}

func (f *fsys) readFile(p string) ([]byte, error) {
	n, err := f.stat(p)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return nil, errIsDir
	}
	return n.data, nil
}

// writeFile replaces (or with appendTo extends) a file's content; a new
// file gets mode, an existing one keeps its own, as open(2) does.
func (f *fsys) writeFile(p string, data []byte, mode fs.FileMode, appendTo bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	p = clean(p)
	rp, n := f.resolveLocked(p)
	if n == nil {
		if err := f.parentOK(rp); err != nil {
			return err
		}
		f.nodes[rp] = &node{data: slices.Clone(data), mode: mode}
		return nil
	}
	if n.dir {
		return errIsDir
	}
	if appendTo {
		n.data = append(n.data, data...)
	} else {
		n.data = slices.Clone(data)
	}
	return nil
}

func (f *fsys) chmod(p string, mode fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, n := f.resolveLocked(clean(p))
	if n == nil {
		return errNotExist
	}
	n.mode = mode
	return nil
}

// remove deletes a file or symlink (never a directory).
func (f *fsys) remove(p string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	p = clean(p)
	n := f.nodes[p]
	if n == nil {
		return errNotExist
	}
	if n.dir {
		return errIsDir
	}
	delete(f.nodes, p)
	return nil
}

// symlink makes link point at target, replacing a file or link there.
func (f *fsys) symlink(target, link string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	link = clean(link)
	if n := f.nodes[link]; n != nil && n.dir {
		return errIsDir
	}
	if err := f.parentOK(link); err != nil {
		return err
	}
	f.nodes[link] = &node{link: target, mode: 0o777}
	return nil
}

// list returns the names directly inside dir, sorted.
func (f *fsys) list(dir string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	dir = clean(dir)
	var out []string
	for p := range f.nodes {
		if p != "/" && path.Dir(p) == dir {
			out = append(out, path.Base(p))
		}
	}
	slices.Sort(out)
	return out
}
