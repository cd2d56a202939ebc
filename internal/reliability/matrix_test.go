package reliability_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// update rewrites the matrix in the guide's template with what this run
// saw, instead of comparing the two:
//
//	go test ./internal/reliability -run TestFaultMatrix -update && make docs
var update = flag.Bool("update", false, "write the observed matrix into "+guide)

// guide is the template the matrix lives in, between its two markers.
const (
	guide       = "../../templates/guides/reliability.md.tmpl"
	beginMarker = "<!-- fault matrix: written by go test ./internal/reliability -update -->"
	endMarker   = "<!-- end of fault matrix -->"
)

// fault is one row of the matrix: a way a backend fails.
type fault struct {
	// id names the fault in lane names ("5xx" makes account "hcloud-5xx").
	id, title, explain string
	// class is the emulators' conformance word for it; "" for the faults
	// the matrix drives itself (race, revoked).
	class string
	// causes are the classes a failed run's diagnostic may end as for this
	// fault: the class that names it.
	causes []adapter.Code
}

var matrixFaults = []fault{
	{id: "5xx", title: "5xx", class: "server_error", causes: []adapter.Code{adapter.Transient},
		explain: "the backend answers the operation's request once with a server error (500)."},
	{id: "rate", title: "rate limit", class: "rate_limited", causes: []adapter.Code{adapter.RateLimited},
		explain: "the backend refuses the request once for the account's rate limit: 429 with RateLimit headers on Hetzner Cloud, 403 RATE_LIMIT_EXCEEDED on Robot."},
	{id: "reset", title: "connection reset", class: "reset", causes: []adapter.Code{adapter.Transient},
		explain: "the connection is reset once before the backend sees the request, so nothing was done and no answer comes."},
	{id: "hang", title: "hang past the bound", class: "hang", causes: []adapter.Code{adapter.Transient},
		explain: "the backend takes the request once and never answers until the provider gives up on it at its request bound, which the matrix sets to 5 seconds for this row only; every other row keeps the production bound of a minute."},
	{id: "drop", title: "answer lost after the write", class: "drop_after_commit", causes: []adapter.Code{adapter.Transient},
		explain: "the backend does what the request asks and the connection closes before the answer: the provider cannot know it took effect."},
	{id: "race", title: "another state takes the name first", causes: []adapter.Code{adapter.Conflict},
		explain: "a second Terraform state with the same configuration creates the machine after the first state planned its create and before it applies that plan; two creates reaching the backend at the same moment are not driven."},
	{id: "revoked", title: "credentials revoked mid-run", causes: []adapter.Code{adapter.AccessDenied},
		explain: "the account's token or password is revoked after the account was created: every request is refused as unauthenticated until it is restored."},
	{id: "locked", title: "locked by someone else", class: "locked", causes: []adapter.Code{adapter.InvalidState, adapter.Transient},
		explain: "the machine is locked by another action once: Hetzner Cloud's 423 locked, Robot's manual reset under way, a Proxmox VE lock file held by another task."},
}

// The operations, the matrix's columns, in the order the test runs them.
const (
	opCreate  = "create"
	opRefresh = "refresh"
	opUpdate  = "update"
	opPower   = "power"
	opOffers  = "offers"
	opDelete  = "delete"
)

var matrixOps = []string{opCreate, opRefresh, opUpdate, opPower, opOffers, opDelete}

// results collects each adapter's cells while the adapters run in
// parallel.
type results struct {
	mu    sync.Mutex
	cells map[string]map[string]map[string]string // adapter, fault id, op
}

func (r *results) set(adapterName, faultID, op, outcome string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cells == nil {
		r.cells = map[string]map[string]map[string]string{}
	}
	if r.cells[adapterName] == nil {
		r.cells[adapterName] = map[string]map[string]string{}
	}
	if r.cells[adapterName][faultID] == nil {
		r.cells[adapterName][faultID] = map[string]string{}
	}
	r.cells[adapterName][faultID][op] = outcome
}

// markdown renders the matrix: the faults explained, then one table per
// adapter, a row per fault and a column per operation.
func (r *results) markdown(backends []*backend) string {
	var b strings.Builder
	for _, f := range matrixFaults {
		fmt.Fprintf(&b, "* **%s**: %s\n", f.title, f.explain)
	}
	for _, be := range backends {
		fmt.Fprintf(&b, "\n### %s\n\n| Fault |", be.title)
		for _, op := range be.ops() {
			fmt.Fprintf(&b, " %s |", op)
		}
		b.WriteString("\n|---|")
		for range be.ops() {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		for _, f := range matrixFaults {
			fmt.Fprintf(&b, "| %s |", f.title)
			for _, op := range be.ops() {
				cell := r.cells[be.name][f.id][op]
				if cell == "" {
					cell = "(not run)"
				}
				fmt.Fprintf(&b, " %s |", cell)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestFaultMatrix runs every adapter's lanes in parallel, then compares
// the matrix they produced with the one the guide shows (or writes it,
// with -update).
func TestFaultMatrix(t *testing.T) {
	res := &results{}
	t.Run("adapter", func(t *testing.T) {
		for _, be := range backends {
			t.Run(be.name, func(t *testing.T) {
				t.Parallel()
				runBackend(t, be, res)
			})
		}
		t.Run(bootstrapBackend.name, func(t *testing.T) {
			t.Parallel()
			runBootstrap(t, res)
		})
	})
	if t.Failed() || t.Skipped() {
		return
	}
	got := res.markdown(tables)
	text, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(text), beginMarker+"\n")
	_, after, ok2 := strings.Cut(rest, endMarker)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the markers %q and %q around the matrix", guide, beginMarker, endMarker)
	}
	want := strings.TrimSuffix(rest, endMarker+after)
	if *update {
		if err := os.WriteFile(guide, []byte(before+beginMarker+"\n"+got+endMarker+after), 0o644); err != nil { //nolint:gosec // a template in the repository
			t.Fatal(err)
		}
		return
	}
	if got != want {
		t.Errorf("the matrix this run saw differs from %s; if the change is meant, run go test ./internal/reliability -run TestFaultMatrix -update and make docs.\nsaw:\n%s\nthe guide shows:\n%s", guide, got, want)
	}
}
