package proxmox

import (
	"bytes"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/pkg/sftp"
)

// The filesystem the nodes' SFTP shows: storage local's directory and
// its snippets subdirectory, the only place files may be written. Files
// live in node.storage by their path below the storage root, which the
// storage content listing reads.
const storageRoot = "/var/lib/vz"

var fsDirs = []string{"/", "/var", "/var/lib", storageRoot, storageRoot + "/snippets"}

type snippetFS struct {
	e *Emulator
	n *node
}

func (e *Emulator) snippetHandlers(n *node) sftp.Handlers {
	fs := &snippetFS{e: e, n: n}
	return sftp.Handlers{FileGet: fs, FilePut: fs, FileCmd: fs, FileList: fs}
}

// key maps an absolute path to its storage key, "" when files may not
// live there.
func key(p string) string {
	p = path.Clean("/" + p)
	rest, ok := strings.CutPrefix(p, storageRoot+"/snippets/")
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return ""
	}
	return "snippets/" + rest
}

func (fs *snippetFS) Fileread(r *sftp.Request) (io.ReaderAt, error) {
	fs.e.mu.Lock()
	defer fs.e.mu.Unlock()
	b, ok := fs.n.storage[key(r.Filepath)]
	if !ok {
		return nil, os.ErrNotExist
	}
	return bytes.NewReader(slices.Clone(b)), nil
}

func (fs *snippetFS) Filewrite(r *sftp.Request) (io.WriterAt, error) {
	k := key(r.Filepath)
	if k == "" {
		return nil, os.ErrPermission
	}
	fs.e.mu.Lock()
	defer fs.e.mu.Unlock()
	if _, ok := fs.n.storage[k]; !ok || r.Pflags().Trunc {
		fs.n.storage[k] = nil
		fs.e.setModeLocked(fs.n, k, 0o644)
	}
	return &storageWriter{fs: fs, key: k}, nil
}

type storageWriter struct {
	fs  *snippetFS
	key string
}

func (w *storageWriter) WriteAt(p []byte, off int64) (int, error) {
	w.fs.e.mu.Lock()
	defer w.fs.e.mu.Unlock()
	b := w.fs.n.storage[w.key]
	if end := int(off) + len(p); end > len(b) {
		b = append(b, make([]byte, end-len(b))...)
	}
	copy(b[off:], p)
	w.fs.n.storage[w.key] = b
	return len(p), nil
}

func (fs *snippetFS) Filecmd(r *sftp.Request) error {
	k := key(r.Filepath)
	fs.e.mu.Lock()
	defer fs.e.mu.Unlock()
	_, exists := fs.n.storage[k]
	switch r.Method {
	case "Setstat":
		if !exists {
			return os.ErrNotExist
		}
		attrs := r.Attributes()
		if r.AttrFlags().Permissions {
			fs.e.setModeLocked(fs.n, k, attrs.FileMode().Perm())
		}
		if r.AttrFlags().Size {
			b := fs.n.storage[k]
			if int(attrs.Size) < len(b) {
				fs.n.storage[k] = b[:attrs.Size]
			}
		}
		return nil
	case "Remove":
		if !exists {
			return os.ErrNotExist
		}
		delete(fs.n.storage, k)
		delete(fs.n.modes, k)
		return nil
	case "Rename":
		target := key(r.Target)
		if !exists {
			return os.ErrNotExist
		}
		if target == "" {
			return os.ErrPermission
		}
		fs.n.storage[target] = fs.n.storage[k]
		fs.e.setModeLocked(fs.n, target, fs.n.modes[k])
		delete(fs.n.storage, k)
		delete(fs.n.modes, k)
		return nil
	}
	return sftp.ErrSSHFxOpUnsupported
}

func (e *Emulator) setModeLocked(n *node, k string, mode os.FileMode) {
	if n.modes == nil {
		n.modes = map[string]os.FileMode{}
	}
	n.modes[k] = mode
}

func (fs *snippetFS) Filelist(r *sftp.Request) (sftp.ListerAt, error) {
	p := path.Clean("/" + r.Filepath)
	fs.e.mu.Lock()
	defer fs.e.mu.Unlock()
	switch r.Method {
	case "List":
		if !slices.Contains(fsDirs, p) {
			return nil, os.ErrNotExist
		}
		var out listerAt
		for _, d := range fsDirs {
			if d != p && path.Dir(d) == p {
				out = append(out, fileInfo{name: path.Base(d), mode: os.ModeDir | 0o755})
			}
		}
		if p == storageRoot+"/snippets" {
			for k, b := range fs.n.storage {
				out = append(out, fileInfo{name: path.Base(k), size: int64(len(b)), mode: fs.n.modes[k]})
			}
			slices.SortFunc(out, func(a, b os.FileInfo) int { return strings.Compare(a.Name(), b.Name()) })
		}
		return out, nil
	case "Stat", "Lstat":
		if slices.Contains(fsDirs, p) {
			return listerAt{fileInfo{name: path.Base(p), mode: os.ModeDir | 0o755}}, nil
		}
		k := key(p)
		if b, ok := fs.n.storage[k]; ok {
			return listerAt{fileInfo{name: path.Base(k), size: int64(len(b)), mode: fs.n.modes[k]}}, nil
		}
		return nil, os.ErrNotExist
	}
	return nil, sftp.ErrSSHFxOpUnsupported
}

type listerAt []os.FileInfo

func (l listerAt) ListAt(dst []os.FileInfo, off int64) (int, error) {
	if off >= int64(len(l)) {
		return 0, io.EOF
	}
	n := copy(dst, l[off:])
	if n < len(dst) {
		return n, io.EOF
	}
	return n, nil
}

type fileInfo struct {
	name string
	size int64
	mode os.FileMode
}

func (f fileInfo) Name() string       { return f.name }
func (f fileInfo) Size() int64        { return f.size }
func (f fileInfo) Mode() os.FileMode  { return f.mode }
func (f fileInfo) ModTime() time.Time { return time.Unix(1_700_000_000, 0) }
func (f fileInfo) IsDir() bool        { return f.mode.IsDir() }
func (f fileInfo) Sys() any           { return nil }

// Snippet returns the content and mode of a file of node's storage local,
// by its name below snippets/.
func (e *Emulator) Snippet(nodeName, name string) ([]byte, os.FileMode, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := e.nodeLocked(nodeName)
	if n == nil {
		return nil, 0, false
	}
	b, ok := n.storage["snippets/"+name]
	return slices.Clone(b), n.modes["snippets/"+name], ok
}
