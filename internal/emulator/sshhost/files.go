package sshhost

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// The file commands of the vocabulary, each with the options the
// bootstrap uses and nothing more: anything else is a usage error (exit
// 2 for test, 1 elsewhere, as coreutils), so a stray option shows in tests.

func usage(io stdio, cmd string, args []string) int {
	fmt.Fprintf(io.err, "%s: unsupported arguments %q\n", cmd, args)
	return 1
}

func parseMode(s string) (fs.FileMode, bool) {
	v, err := strconv.ParseUint(s, 8, 32)
	if err != nil || v > 0o7777 {
		return 0, false
	}
	return fs.FileMode(v), true
}

func cmdUmask(sh *shell, io stdio, args []string) int {
	if len(args) != 1 {
		return usage(io, "umask", args)
	}
	m, ok := parseMode(args[0])
	if !ok || m > 0o777 {
		fmt.Fprintf(io.err, "sh: umask: Illegal mode: %s\n", args[0])
		return 2
	}
	sh.umask = m
	return 0
}

func cmdMkdir(sh *shell, io stdio, args []string) int {
	if len(args) < 2 || args[0] != "-p" {
		return usage(io, "mkdir", args)
	}
	for _, d := range args[1:] {
		f, p := sh.where(d)
		if f == nil {
			fmt.Fprintf(io.err, "mkdir: cannot create directory '%s': File exists\n", d)
			return 1
		}
		if err := f.mkdirAll(p, 0o777&^sh.umask); err != nil {
			fmt.Fprintf(io.err, "mkdir: cannot create directory '%s': %v\n", d, err)
			return 1
		}
	}
	return 0
}

func cmdCat(sh *shell, io stdio, args []string) int {
	if len(args) == 0 {
		if err := copyCtx(sh, io.out, io.in); err != nil {
			fmt.Fprintf(io.err, "cat: -: %v\n", err)
			return 1
		}
		return 0
	}
	status := 0
	for _, p := range args {
		data, err := sh.read(p)
		if err != nil {
			fmt.Fprintf(io.err, "cat: %s: %v\n", p, err)
			status = 1
			continue
		}
		_, _ = io.out.Write(data)
	}
	return status
}

// copyCtx copies stdin until EOF, stopping when the session is killed.
func copyCtx(sh *shell, w io.Writer, r io.Reader) error {
	buf := make([]byte, 32*1024)
	for {
		if err := sh.ctx.Err(); err != nil {
			return err
		}
		k, err := r.Read(buf)
		if k > 0 {
			if _, werr := w.Write(buf[:k]); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func cmdChmod(sh *shell, io stdio, args []string) int {
	if len(args) != 2 {
		return usage(io, "chmod", args)
	}
	mode, ok := parseMode(args[0])
	if !ok {
		fmt.Fprintf(io.err, "chmod: invalid mode: '%s'\n", args[0])
		return 1
	}
	f, p := sh.where(args[1])
	if f == nil {
		return 0
	}
	if err := f.chmod(p, mode); err != nil {
		fmt.Fprintf(io.err, "chmod: cannot access '%s': %v\n", args[1], err)
		return 1
	}
	return 0
}

func cmdTest(sh *shell, io stdio, args []string) int {
	if len(args) != 2 || (args[0] != "-e" && args[0] != "-f" && args[0] != "-s") {
		fmt.Fprintf(io.err, "sh: test: unsupported expression %q\n", args)
		return 2
	}
	n, err := sh.stat(args[1])
	if err != nil {
		return 1
	}
	switch args[0] {
	case "-f":
		if n.dir || abs(args[1]) == "/dev/null" {
			return 1
		}
	case "-s":
		if n.dir || len(n.data) == 0 {
			return 1
		}
	}
	return 0
}

// cmdRemove is rm -f (missing files are fine) and shred -u (they are not).
func cmdRemove(name, flag string, missingOK bool) func(*shell, stdio, []string) int {
	return func(sh *shell, io stdio, args []string) int {
		if len(args) < 2 || args[0] != flag {
			return usage(io, name, args)
		}
		status := 0
		for _, p := range args[1:] {
			f, rp := sh.where(p)
			if f == nil {
				continue
			}
			err := f.remove(rp)
			if err == nil || (err == errNotExist && missingOK) {
				continue
			}
			if name == "shred" {
				fmt.Fprintf(io.err, "shred: %s: failed to open for writing: %v\n", p, err)
			} else {
				fmt.Fprintf(io.err, "rm: cannot remove '%s': %v\n", p, err)
			}
			status = 1
		}
		return status
	}
}

func cmdCp(sh *shell, io stdio, args []string) int {
	if len(args) != 2 {
		return usage(io, "cp", args)
	}
	src, dst := args[0], args[1]
	n, err := sh.stat(src)
	if err == nil && n.dir {
		err = errIsDir
	}
	if err != nil {
		fmt.Fprintf(io.err, "cp: cannot stat '%s': %v\n", src, err)
		return 1
	}
	if d, err := sh.stat(dst); err == nil && d.dir {
		dst = path.Join(abs(dst), path.Base(src))
	}
	if err := sh.write(dst, n.data, n.mode&^sh.umask, false); err != nil {
		fmt.Fprintf(io.err, "cp: cannot create regular file '%s': %v\n", dst, err)
		return 1
	}
	return 0
}

// cmdInstall is install -D -m MODE SRC DST: it makes DST's parents, then
// writes DST with exactly MODE (the umask does not apply).
func cmdInstall(sh *shell, io stdio, args []string) int {
	var mode fs.FileMode = 0o755
	makeParents := false
	var ops []string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-D":
			makeParents = true
		case "-m":
			if i+1 == len(args) {
				return usage(io, "install", args)
			}
			m, ok := parseMode(args[i+1])
			if !ok {
				fmt.Fprintf(io.err, "install: invalid mode '%s'\n", args[i+1])
				return 1
			}
			mode = m
			i++
		default:
			ops = append(ops, args[i])
		}
	}
	if len(ops) != 2 || strings.HasPrefix(ops[0], "-") {
		return usage(io, "install", args)
	}
	data, err := sh.read(ops[0])
	if err != nil {
		fmt.Fprintf(io.err, "install: cannot stat '%s': %v\n", ops[0], err)
		return 1
	}
	f, dst := sh.where(ops[1])
	if f == nil {
		return 0
	}
	if makeParents {
		if err := f.mkdirAll(path.Dir(dst), 0o755); err != nil {
			fmt.Fprintf(io.err, "install: cannot create directory '%s': %v\n", path.Dir(ops[1]), err)
			return 1
		}
	}
	if err := f.writeFile(dst, data, mode, false); err != nil {
		fmt.Fprintf(io.err, "install: cannot create regular file '%s': %v\n", ops[1], err)
		return 1
	}
	// An existing DST keeps its mode through writeFile; install sets it.
	_ = f.chmod(dst, mode)
	return 0
}

func cmdLn(sh *shell, io stdio, args []string) int {
	if len(args) != 3 || args[0] != "-sf" {
		return usage(io, "ln", args)
	}
	f, link := sh.where(args[2])
	if f == nil {
		return usage(io, "ln", args)
	}
	if err := f.symlink(args[1], link); err != nil {
		fmt.Fprintf(io.err, "ln: failed to create symbolic link '%s': %v\n", args[2], err)
		return 1
	}
	return 0
}

func cmdEcho(sh *shell, io stdio, args []string) int {
	fmt.Fprintln(io.out, strings.Join(args, " "))
	return 0
}

// cmdSha256sum is sha256sum -c F: each line "HEX  PATH" (two spaces, or
// a space and "*" for binary mode).
func cmdSha256sum(sh *shell, io stdio, args []string) int {
	if len(args) != 2 || args[0] != "-c" {
		return usage(io, "sha256sum", args)
	}
	list, err := sh.read(args[1])
	if err != nil {
		fmt.Fprintf(io.err, "sha256sum: %s: %v\n", args[1], err)
		return 1
	}
	status, lines := 0, 0
	for _, line := range strings.Split(string(list), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		sum, file, ok := strings.Cut(line, " ")
		if !ok || len(sum) != 64 || len(file) < 2 || (file[0] != ' ' && file[0] != '*') {
			fmt.Fprintf(io.err, "sha256sum: %s: improperly formatted SHA256 checksum line\n", args[1])
			status = 1
			continue
		}
		lines++
		file = file[1:]
		data, err := sh.read(file)
		if err != nil {
			fmt.Fprintf(io.err, "sha256sum: %s: %v\n", file, err)
			fmt.Fprintf(io.out, "%s: FAILED open or read\n", file)
			status = 1
			continue
		}
		got := sha256.Sum256(data)
		if !strings.EqualFold(hex.EncodeToString(got[:]), sum) {
			fmt.Fprintf(io.out, "%s: FAILED\n", file)
			status = 1
			continue
		}
		fmt.Fprintf(io.out, "%s: OK\n", file)
	}
	if lines == 0 {
		fmt.Fprintf(io.err, "sha256sum: %s: no properly formatted checksum lines found\n", args[1])
		return 1
	}
	return status
}
