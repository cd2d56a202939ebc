package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"time"
)

// heapProfileEnv names a path prefix under which a provider started with
// -debug writes a heap profile every heapProfileEvery (PREFIX.1, PREFIX.2,
// …), for a look with `go tool pprof` at where its memory goes while
// Terraform drives it (tools/bench runs the provider this way). It is read
// in debug mode only, so a provider Terraform starts never pays for it, and
// it listens on nothing.
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
		for n := 1; ; n++ {
			time.Sleep(heapProfileEvery)
			if err := writeHeapProfile(prefix + "." + strconv.Itoa(n)); err != nil {
				fmt.Fprintln(os.Stderr, "heap profile:", err)
				return
			}
		}
	}()
}

func writeHeapProfile(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
