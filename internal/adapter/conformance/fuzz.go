package conformance

import (
	"context"
	"errors"
	"math"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Answer is a backend that answers every request with one status and body,
// which a fuzz target changes between runs: the adapter's whole path from
// the HTTP answer to its one classify is then fuzzed, not classify alone.
//
// A call that polls (a delete waiting for its action, say) could poll an
// answer that never changes for ever; Answer cancels the call's context
// once it has served answerBudget requests, so such a call ends, counted in
// requests rather than time, and its error is then the cancellation's.
type Answer struct {
	mu     sync.Mutex
	status int
	body   []byte
	served int
	cancel context.CancelFunc
}

// answerBudget is how many requests one call may make of an Answer before
// its context is cancelled: more than any read or delete makes of a backend
// that answers it at once.
const answerBudget = 64

// Start makes every following request answer status and body, and returns
// the context for the one call made of it. A status outside 200–599 is
// folded into that range, so any fuzzed integer is one.
func (a *Answer) Start(status int, body []byte) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	a.mu.Lock()
	defer a.mu.Unlock()
	if status < 200 || status > 599 {
		status = 200 + ((status%400)+400)%400
	}
	a.status, a.body, a.served, a.cancel = status, body, 0, cancel
	return ctx, cancel
}

func (a *Answer) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	a.mu.Lock()
	status, body := a.status, a.body
	if a.served++; a.served >= answerBudget && a.cancel != nil {
		a.cancel()
	}
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// AnswerSeeds are the fuzz seeds every adapter's classify target starts
// from: answers of each API, of proxies and of servers that are not an API,
// each at the statuses that mean something to one of the APIs. The first
// argument picks the call (AnswerCalls): every call reads each body as a
// success, and the error statuses take the calls in turn.
func AnswerSeeds(f *testing.F, apiOwn ...string) {
	var call uint8
	for _, b := range append([]string{
		"", "null", "{}", "[]", `{"error":null}`, `{"error":{}}`, `{"error":"x"}`, `{"data":null}`,
		"<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", `{"message":"Not Found"}`, "\xff\xfe",
	}, apiOwn...) {
		for c := range uint8(maxAnswerCalls) {
			f.Add(c, 200, []byte(b))
		}
		for _, s := range []int{400, 401, 403, 404, 409, 423, 429, 500, 501, 502, 503, 595} {
			f.Add(call, s, []byte(b))
			call++
		}
	}
}

// maxAnswerCalls is how many calls AnswerCalls gives at most.
const maxAnswerCalls = 7

// AnswerCall is one call of an adapter that a classify fuzz target makes:
// its name, whether a NotFound from it can mean absence at all (a listing's
// never does), and the call, which returns the machine or the offers it
// read, if any.
type AnswerCall struct {
	Name    string
	Absence bool
	Do      func(ctx context.Context) (*adapter.Machine, []adapter.Offer, error)
}

// AnswerCalls are the calls of a that read, delete or create, each against
// the machine id: Get, Delete, the listings a offers, and Create of req
// (which is never NotFound).
func AnswerCalls(a adapter.Adapter, id string, req adapter.CreateRequest) []AnswerCall {
	calls := []AnswerCall{
		{"Get", true, func(ctx context.Context) (*adapter.Machine, []adapter.Offer, error) {
			m, err := a.Get(ctx, id)
			return &m, nil, err
		}},
		{"Delete", true, func(ctx context.Context) (*adapter.Machine, []adapter.Offer, error) {
			return nil, nil, a.Delete(ctx, id)
		}},
		{"ListOffers", false, func(ctx context.Context) (*adapter.Machine, []adapter.Offer, error) {
			offers, err := a.ListOffers(ctx, adapter.Query{})
			return nil, offers, err
		}},
		{"Create", false, func(ctx context.Context) (*adapter.Machine, []adapter.Offer, error) {
			call := adapter.Call{IdempotencyKey: adapter.IdempotencyKey("fuzz", req.Name), Claim: adapter.NewClaim(), Account: "fuzz"}
			m, err := a.Create(ctx, call, req)
			return &m, nil, err
		}},
	}
	if l, ok := a.(adapter.Lister); ok {
		calls = append(calls, AnswerCall{"List", false, listing(l.List)})
	}
	if l, ok := a.(adapter.Inventory); ok {
		calls = append(calls, AnswerCall{"Inventory", false, listing(l.Inventory)})
	}
	if c, ok := a.(adapter.Checker); ok {
		calls = append(calls, AnswerCall{"Check", false, func(ctx context.Context) (*adapter.Machine, []adapter.Offer, error) {
			return nil, nil, c.Check(ctx)
		}})
	}
	return calls
}

func listing(list func(context.Context) ([]adapter.Machine, error)) func(context.Context) (*adapter.Machine, []adapter.Offer, error) {
	return func(ctx context.Context) (*adapter.Machine, []adapter.Offer, error) {
		_, err := list(ctx)
		return nil, nil, err
	}
}

// FuzzAnswer makes the call that pick selects of newAdapter's adapter
// while answer answers status and body, and checks what came back:
// classified when it failed (*adapter.Error), NotFound only where the call
// can mean absence and proof (the API's own proof of absence, read from
// status and body by the adapter's test) says so, a machine read without
// error held to the rules of conservative states, and offers to numbers
// Terraform can hold.
func FuzzAnswer(t *testing.T, answer *Answer, newAdapter func() adapter.Adapter, id string, req adapter.CreateRequest,
	pick uint8, status int, body []byte, proof func(status int, body []byte) bool) {
	t.Helper()
	calls := AnswerCalls(newAdapter(), id, req)
	call := calls[int(pick)%len(calls)]
	ctx, cancel := answer.Start(status, body)
	defer cancel()
	m, offers, err := call.Do(ctx)
	what := call.Name
	if err == nil {
		if m != nil {
			checkAnsweredMachine(t, what, status, body, *m)
		}
		for _, o := range offers {
			checkAnsweredOffer(t, what, status, body, o)
		}
		return
	}
	var e *adapter.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s after HTTP %d %q: %T %v is not classified", what, status, body, err, err)
	}
	if adapter.IsNotFound(err) && !(call.Absence && proof(status, body)) {
		t.Fatalf("%s after HTTP %d %q: NotFound (%v), but the answer is not the API's proof of absence", what, status, body, err)
	}
}

// checkAnsweredMachine holds a machine read from an arbitrary answer to
// what any answer must give: one of the contract's states, running only
// with an address. (The raw status may be empty: an answer may lack it.)
func checkAnsweredMachine(t *testing.T, what string, status int, body []byte, m adapter.Machine) {
	t.Helper()
	if !slices.Contains(states, m.State) {
		t.Fatalf("%s after HTTP %d %q: state %q is not one of the contract's %v", what, status, body, m.State, states)
	}
	if m.State == adapter.StateRunning && !m.HasAddress() {
		t.Fatalf("%s after HTTP %d %q: running without an address (raw %q)", what, status, body, m.RawState)
	}
}

// checkAnsweredOffer holds an offer read from an arbitrary answer to
// numbers a Terraform number can hold (NaN and the infinities it cannot,
// and converting them panics) and to prices and sizes no less than 0.
func checkAnsweredOffer(t *testing.T, what string, status int, body []byte, o adapter.Offer) {
	t.Helper()
	for name, v := range map[string]float64{
		"price_per_hour": o.PricePerHour, "price_per_month": o.PricePerMonth, "setup_fee": o.SetupFee,
		"memory_gib": o.MemoryGiB, "vcpu": float64(o.VCPU), "disk_gib": float64(o.DiskGiB), "gpus": float64(o.GPUs),
	} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("%s after HTTP %d %q: offer %s has %s %v", what, status, body, o.ID, name, v)
		}
	}
}
