package proxmox

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// transcriptLine is one request of testdata/bpg-transcript.jsonl, which
// scripts/bpg-check.sh records while bpg/terraform-provider-proxmox runs
// its everyday flows (data sources, clone, a second plan, an in-place
// change, import, destroy) against the emulator.
type transcriptLine struct {
	Flow   string `json:"flow"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Query  string `json:"query"`
	Body   string `json:"body"`
	Status int    `json:"status"`
	// UPID is the task the request started, Task the status bpg read
	// for a task ("stopped": it waited for the end).
	UPID string `json:"upid"`
	Task string `json:"task"`
}

func loadTranscript(t *testing.T) []transcriptLine {
	t.Helper()
	f, err := os.Open("testdata/bpg-transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []transcriptLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l transcriptLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

// instantClock lets every wait of the emulator pass at once and moves
// time on by a second each time it is read, so a clone, a boot and a
// destroy are over by the time a replayed request looks.
type instantClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *instantClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

func (c *instantClock) After(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch
}

// TestBPGTranscript replays bpg's requests against a fresh emulator, in
// order, and checks each answer: the status bpg got, and for a success
// the shape PVE's schema gives the route's answer. A task bpg saw stopped
// is waited for first; UPIDs are mapped from the recording to the replay.
func TestBPGTranscript(t *testing.T) {
	lines := loadTranscript(t)
	e := New(Options{Clock: &instantClock{now: time.Unix(1_760_000_000, 0)}})
	t.Cleanup(e.Close)
	upids := map[string]string{}
	flows := map[string]bool{}
	for i, l := range lines {
		flows[l.Flow] = true
		path := l.Path
		for old, now := range upids {
			path = strings.ReplaceAll(path, url.PathEscape(old), url.PathEscape(now))
		}
		if l.Task == "stopped" {
			waitTask(t, e, path)
		}
		target := APIPrefix + path
		if l.Query != "" {
			target += "?" + l.Query
		}
		req := httptest.NewRequest(l.Method, target, strings.NewReader(l.Body))
		if l.Body != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("Authorization", "PVEAPIToken=root@pam!demo=replay")
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		at := l.Flow + " #" + strconv.Itoa(i+1) + " " + l.Method + " " + l.Path
		if rec.Code != l.Status {
			t.Fatalf("%s: %d %s, bpg got %d", at, rec.Code, strings.TrimSpace(rec.Body.String()), l.Status)
		}
		if rec.Code != http.StatusOK {
			continue
		}
		route := l.Method + " " + Route(cleanPath(l.Path))
		for _, b := range answerConforms(route, rec.Body.Bytes()) {
			t.Errorf("%s: %s", at, b)
		}
		if l.UPID != "" {
			var env struct{ Data string }
			_ = json.Unmarshal(rec.Body.Bytes(), &env)
			upids[l.UPID] = env.Data
		}
	}
	for _, f := range []string{"datasources", "clone", "second-plan", "in-place", "import", "destroy"} {
		if !flows[f] {
			t.Errorf("the transcript has no %s flow", f)
		}
	}
	if vms := e.VMs(); len(vms) != 1 || vms[0].VMID != 9000 {
		t.Errorf("after bpg's destroy the emulator holds %+v, want the template alone", vms)
	}
}

// waitTask waits, without a bound, for the task a status path names.
func waitTask(t *testing.T, e *Emulator, path string) {
	t.Helper()
	segs := strings.Split(path, "/")
	for i := range segs {
		if segs[i] == "tasks" && i+1 < len(segs) {
			upid, _ := url.PathUnescape(segs[i+1])
			e.mu.Lock()
			task, ok := e.tasks[upid]
			e.mu.Unlock()
			if !ok {
				t.Fatalf("no task %s to wait for", upid)
			}
			<-task.doneCh
			return
		}
	}
}

func cleanPath(p string) string {
	u := &url.URL{Path: p}
	dropEmptySegments(u)
	return u.Path
}
