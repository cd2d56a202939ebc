package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// binaries are the built provider, emulator and floor provider
// (tools/bench/floorprovider).
type binaries struct {
	provider, emulator, floor string
}

// build builds both into scratch/bin with the go on PATH, from the module
// the command runs in (make bench runs it at the repository's root).
func build(ctx context.Context, scratch string) (binaries, error) {
	dir := filepath.Join(scratch, "bin")
	b := binaries{provider: filepath.Join(dir, "terraform-provider-compute"), emulator: filepath.Join(dir, "compute-emulator"),
		floor: filepath.Join(dir, "floor-provider")}
	for _, step := range [][2]string{{b.provider, "."}, {b.emulator, "./tools/emulator"}, {b.floor, "./tools/bench/floorprovider"}} {
		progress("building %s", step[1])
		cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", step[0], step[1])
		if out, err := cmd.CombinedOutput(); err != nil {
			return b, fmt.Errorf("go build %s: %w\n%s", step[1], err, out)
		}
	}
	return b, nil
}

// emulator is a running tools/emulator: its announced lines by name, and
// the root of its control API.
type emulator struct {
	cmd     *exec.Cmd
	lines   map[string][]string
	control string
	stderr  *bytes.Buffer
}

func startEmulator(ctx context.Context, bin string, args ...string) (*emulator, error) {
	cmd := exec.CommandContext(ctx, bin, append([]string{"-listen", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	e := &emulator{cmd: cmd, lines: map[string][]string{}, stderr: &bytes.Buffer{}}
	cmd.Stderr = e.stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	// The first-boot line comes last, once every other line is out.
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 1 {
			e.lines[f[0]] = f[1:]
		}
		if len(f) > 0 && f[0] == "first-boot" {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	hc := e.lines["hcloud"]
	if len(hc) == 0 || e.lines["first-boot"] == nil {
		e.stop()
		return nil, fmt.Errorf("the emulator announced no addresses: %s", e.stderr)
	}
	e.control = strings.TrimSuffix(hc[0], "/v1")
	return e, nil
}

func (e *emulator) stop() {
	_ = e.cmd.Process.Signal(syscall.SIGTERM)
	_ = e.cmd.Wait()
}

// controlPrefix is where an adapter's emulator keeps its stats and faults.
var controlPrefix = map[string]string{"hcloud": "/_emulator", "robot": "/_emulator/robot", "proxmox": "/_emulator/proxmox"}

func (e *emulator) call(method, path string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, e.control+path, rd)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s %s: %s %s", method, path, resp.Status, msg)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// stats are one emulator's request counts by route ("POST /servers": 3).
type stats map[string]int

func (s stats) total() int {
	n := 0
	for _, c := range s {
		n += c
	}
	return n
}

func (e *emulator) stats(adapter string) (stats, error) {
	var s stats
	return s, e.call(http.MethodGet, controlPrefix[adapter]+"/stats", nil, &s)
}

func (e *emulator) resetStats(adapter string) error {
	return e.call(http.MethodDelete, controlPrefix[adapter]+"/stats", nil, nil)
}

func (e *emulator) setLatency(adapter string, d time.Duration) error {
	if err := e.call(http.MethodDelete, controlPrefix[adapter]+"/faults", nil, nil); err != nil {
		return err
	}
	if d == 0 {
		return nil
	}
	return e.call(http.MethodPost, controlPrefix[adapter]+"/faults", map[string]string{"latency": d.String()}, nil)
}

// provider is the provider served in debug mode: Terraform reattaches to it
// instead of starting its own, so this process is the provider's parent
// and reads its peak memory when it ends.
type provider struct {
	cmd      *exec.Cmd
	reattach string
}

func startProvider(ctx context.Context, bin, logFile, providerLog string, env []string) (*provider, error) {
	log, err := os.Create(logFile)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	cmd := exec.CommandContext(ctx, bin, "-debug")
	// A provider Terraform starts logs nothing unless TF_LOG asks; in debug
	// mode it and its SDK would log every gRPC call at TRACE, which costs
	// time no user's run pays. -provider-log asks for the provider's own
	// log at a level, into provider.log.
	level := "OFF"
	if providerLog != "" {
		level = providerLog
	}
	cmd.Env = append(append(os.Environ(), "TF_LOG=OFF", "TF_LOG_PROVIDER="+level,
		"TF_LOG_SDK=OFF", "TF_LOG_SDK_PROTO=OFF", "TF_LOG_SDK_FRAMEWORK=OFF"), env...)
	cmd.Stderr = log
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &provider{cmd: cmd}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, "TF_REATTACH_PROVIDERS='"); ok {
			p.reattach = strings.TrimSuffix(v, "'")
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	if p.reattach == "" {
		_, _ = p.stop()
		return nil, errors.New("the provider printed no TF_REATTACH_PROVIDERS value in debug mode; its log: " + logFile)
	}
	return p, nil
}

// stop interrupts the provider and returns its peak resident memory in
// bytes, from the rusage of the ended process (Linux reports KiB).
func (p *provider) stop() (int64, error) {
	_ = p.cmd.Process.Signal(os.Interrupt)
	_ = p.cmd.Wait()
	if p.cmd.ProcessState == nil {
		return 0, errors.New("the provider did not end")
	}
	ru, ok := p.cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, errors.New("no rusage for the provider process")
	}
	return ru.Maxrss * 1024, nil
}

// terraform runs one command in dir and returns its wall time; a failure
// carries the end of its output.
func terraform(ctx context.Context, bin, dir string, env []string, args ...string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	// Interrupted, Terraform waits for what is in flight; past this it is
	// killed, so Ctrl-C ends the bench.
	cmd.WaitDelay = 30 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	started := time.Now()
	err := cmd.Run()
	took := time.Since(started)
	_ = os.WriteFile(filepath.Join(dir, args[0]+".out"), out.Bytes(), 0o600)
	if err != nil {
		tail := out.String()
		if len(tail) > 3000 {
			tail = "…" + tail[len(tail)-3000:]
		}
		return took, fmt.Errorf("%s %s: %w\n%s", bin, strings.Join(args, " "), err, tail)
	}
	return took, nil
}
