package robot

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentCreatesClaimDifferentServers: two creates of one process
// whose listings both show servers 102 and 104 free, where the first
// create's claim is written and read back before the second writes, end on
// two servers, each named for its own resource. Picking from the listing
// alone, or skipping only the servers whose claim write has ended, sends
// both to 102, where each reads its own name back in turn.
func TestConcurrentCreatesClaimDifferentServers(t *testing.T) {
	f := newFake()
	f.add(102, "", "AX42", "FSN1-DC14", statusReady)
	f.add(104, "", "AX42", "FSN1-DC14", statusReady)
	g := &raceGate{fake: f, listed: make(chan struct{}), picked: make(chan struct{}), readBack: make(chan struct{})}
	a := testAccount(t, g, nil, nil)

	ids := make([]string, 2)
	var wg sync.WaitGroup
	for i, name := range []string{"web-1", "web-2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := a.Create(context.Background(), call(a, name), req(name))
			if err != nil {
				t.Errorf("create %s: %v", name, err)
				return
			}
			ids[i] = m.ID
			n, _ := strconv.Atoi(m.ID)
			if got := parseName(f.name(n)).Name; got != name {
				t.Errorf("create %s returned server %s, which is named for %q", name, m.ID, got)
			}
		}()
	}
	wg.Wait()
	if ids[0] == ids[1] {
		t.Errorf("both creates took server %s", ids[0])
	}
}

// raceGate holds the fake's answers in the order that loses a claim: the
// first two listings wait for each other, the first claim write waits until
// the second create has picked its server too (its write arrives), and
// every claim write after the first waits until the first claim has been
// read back.
type raceGate struct {
	fake     *fake
	mu       sync.Mutex
	lists    int
	writes   int
	listed   chan struct{}
	picked   chan struct{}
	readBack chan struct{}
	first    string
	closed   bool
}

func (g *raceGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	route := r.Method + " " + r.URL.Path
	g.mu.Lock()
	switch {
	case route == "GET /server":
		g.lists++
		if g.lists == 2 {
			close(g.listed)
		}
		if g.lists <= 2 {
			g.mu.Unlock()
			<-g.listed
			g.mu.Lock()
		}
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/server/"):
		g.writes++
		switch g.writes {
		case 1:
			g.first = r.URL.Path
			g.mu.Unlock()
			<-g.picked
			g.mu.Lock()
		case 2:
			close(g.picked)
			fallthrough
		default:
			g.mu.Unlock()
			<-g.readBack
			g.mu.Lock()
		}
	}
	readBack := r.Method == http.MethodGet && g.first != "" && r.URL.Path == g.first && !g.closed
	g.closed = g.closed || readBack
	g.mu.Unlock()
	g.fake.ServeHTTP(w, r)
	if readBack {
		close(g.readBack)
	}
}
