package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

// heapProfileEnv names a path prefix under which a provider started with
// -debug writes a heap profile every heapProfileEvery, for a look with `go
// tool pprof` at where its memory goes while Terraform drives it
// (tools/bench runs the provider this way). Two files are kept, however long
// the run: PREFIX.latest, the last profile, and PREFIX.largest, the one
// taken when the heap in use was the largest so far. It is read in debug
// mode only, so a provider Terraform starts never pays for it, and it
// listens on nothing.
const heapProfileEnv = "TF_COMPUTE_HEAP_PROFILE"

const heapProfileEvery = 2 * time.Second

// writeHeapProfiles starts the writer when prefix is set. A profile is
// taken after a collection (as /debug/pprof/heap?gc=1 is), so it shows what
// the provider holds, not what it has yet to collect.
func writeHeapProfiles(prefix string) {
	if prefix == "" {
		return
	}
	go func() {
		tick := time.NewTicker(heapProfileEvery)
		defer tick.Stop()
		var largest uint64
		for range tick.C {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			err := writeHeapProfile(prefix + ".latest")
			if err == nil && m.HeapAlloc > largest {
				largest = m.HeapAlloc
				err = writeHeapProfile(prefix + ".largest")
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "heap profile:", err)
				return
			}
		}
	}()
}

// writeHeapProfile writes the heap profile to path, through a file beside
// it, so that a reader never sees half a profile.
func writeHeapProfile(path string) error {
	f, err := os.OpenFile(path+".tmp", os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

// cpuProfileEnv names a file to which a provider started with -debug writes
// a CPU profile of its whole run, from its start until it is interrupted,
// for a look with `go tool pprof` at where a plan's time goes in the
// provider (tools/bench runs the provider this way). Like heapProfileEnv
// it is read in debug mode only.
const cpuProfileEnv = "TF_COMPUTE_CPU_PROFILE"

// startCPUProfile starts the profile when path is set and returns what
// ends it and writes the file out; a profile that cannot start is said on
// stderr and the provider serves as it would without one.
func startCPUProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err == nil {
		err = pprof.StartCPUProfile(f)
		if err != nil {
			_ = f.Close()
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cpu profile:", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "cpu profile:", err)
		}
	}
}
