package robot

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// OrderPace says how orders are delivered. An order's transaction is "in
// process" until its server is delivered, then "ready" with the server's
// number, IP and rescue host keys; the server comes unnamed, booted into
// the rescue system armed with the order's authorized keys. Each order
// keeps the pace in force when it was placed.
type OrderPace struct {
	// Polls is how many reads of the transaction (by id, or in the list)
	// deliver it; 0 means 1: the first read sees it ready. A negative
	// value delivers before the order is answered.
	Polls int `json:"polls"`
	// Duration, when positive, delivers after this much time on the
	// emulator's clock instead, whatever is read.
	Duration faults.Duration `json:"duration"`
}

type orderKind int

const (
	kindStandard orderKind = iota
	kindMarket
)

// Transaction statuses, as Robot spells them.
const (
	statusInProcess = "in process"
	statusReady     = "ready"
	statusCancelled = "cancelled"
)

// orderRetention is how long Robot lists transactions.
const orderRetention = 30 * 24 * time.Hour

// transaction is one order.
type transaction struct {
	id      string
	kind    orderKind
	date    time.Time
	status  string
	pace    OrderPace
	polls   int
	fails   bool
	std     *product
	market  *marketProduct
	dc      string
	dist    string
	comment string
	keys    []*sshKey
	server  *server
}

func (t *transaction) json() map[string]any { return map[string]any{"transaction": t.fields()} }

func (t *transaction) fields() map[string]any {
	out := map[string]any{
		"id": t.id, "date": t.date.Format(time.RFC3339), "status": t.status,
		"server_number": nil, "server_ip": nil, "authorized_key": keyRefs(t.keys), "host_key": []any{},
		"comment": nil, "product": t.productJSON(), "addons": []string{},
	}
	if t.comment != "" {
		out["comment"] = t.comment
	}
	if t.status == statusReady && t.server != nil {
		out["server_number"], out["server_ip"] = t.server.number, t.server.ip()
		out["host_key"] = hostKeysJSON(t.server.machine.RescueHostKeys())
	}
	return out
}

func (t *transaction) productJSON() map[string]any {
	loc := datacenterLocation(t.dc)
	if t.market != nil {
		p := t.market
		return map[string]any{"id": p.id, "name": p.name, "description": p.description, "traffic": "unlimited",
			"dist": t.dist, "arch": 64, "lang": "en", "location": loc, "cpu": p.cpu, "cpu_benchmark": p.cpuBenchmark,
			"memory_size": p.memoryGB, "hdd_size": p.hddGB, "hdd_text": p.hddText, "hdd_count": len(p.disks)}
	}
	p := t.std
	return map[string]any{"id": p.id, "name": p.name, "description": p.description, "traffic": p.traffic,
		"dist": t.dist, "arch": 64, "lang": "en", "location": loc}
}

func datacenterLocation(dc string) string {
	for l, d := range datacenters {
		if d == dc {
			return l
		}
	}
	return (&marketProduct{datacenter: dc}).location()
}

// order places an order: product_id, authorized_key[] (fingerprints under
// /key), location (standard products; the first offered if left out),
// dist, lang, comment, test. A test order is answered and forgotten.
func (e *Emulator) order(kind orderKind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		f := r.PostForm
		id := f.Get("product_id")
		if id == "" {
			writeError(w, missingInput("product_id"))
			return
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		t := &transaction{kind: kind, date: e.now(), status: statusInProcess, pace: e.orderPace, comment: f.Get("comment")}
		if err := e.pickProductLocked(t, id, f.Get("location")); err != nil {
			writeError(w, err)
			return
		}
		t.dist = f.Get("dist")
		if t.dist == "" {
			t.dist = standardDists[0]
		}
		switch fps := authorizedKeys(r); {
		case !slices.Contains(standardDists, t.dist):
			writeError(w, invalidInput("dist "+t.dist+" is not offered; take one of "+joinQuoted(standardDists), "dist"))
			return
		case f.Get("lang") != "" && f.Get("lang") != "en":
			writeError(w, invalidInput("lang "+f.Get("lang")+" is not offered; take \"en\"", "lang"))
			return
		case len(fps) == 0:
			// The emulator delivers servers for key login only.
			writeError(w, missingInput("authorized_key"))
			return
		default:
			keys, err := e.keysLocked(fps)
			if err != nil {
				writeError(w, err)
				return
			}
			t.keys = keys
		}
		t.id = e.transactionIDLocked()
		if f.Get("test") == "true" {
			writeJSON(w, http.StatusCreated, t.json())
			return
		}
		if t.market != nil {
			delete(e.market, t.market.id)
		}
		if e.failOrders > 0 {
			e.failOrders--
			t.fails = true
		}
		e.orders[t.id] = t
		e.orderSeq = append(e.orderSeq, t.id)
		if t.pace.Polls < 0 {
			e.settleLocked(t)
		}
		writeJSON(w, http.StatusCreated, t.json())
	}
}

func (e *Emulator) pickProductLocked(t *transaction, id, location string) *apiError {
	if t.kind == kindMarket {
		n, _ := strconv.Atoi(id)
		if t.market = e.market[n]; t.market == nil {
			return failure(http.StatusNotFound, codeProductNotFound, "server market product %q is not on offer", id)
		}
		t.dc = t.market.datacenter
		return nil
	}
	if t.std = findProduct(id); t.std == nil {
		return failure(http.StatusNotFound, codeProductNotFound, "product %q not found", id)
	}
	if location == "" {
		location = t.std.locations[0]
	}
	if !slices.Contains(t.std.locations, location) {
		return invalidInput("location "+location+" does not offer "+id+"; take one of "+joinQuoted(t.std.locations), "location")
	}
	t.dc = datacenters[location]
	return nil
}

func (e *Emulator) transactionIDLocked() string {
	return fmt.Sprintf("B%s-%07d-%06d", e.now().Format("20060102"), 3_000_000+len(e.orderSeq)+1, 100_000+len(e.orderSeq)*7)
}

// settleLocked ends an order: a failing one is cancelled (a market server
// back on offer), any other delivers its server.
func (e *Emulator) settleLocked(t *transaction) {
	if t.status != statusInProcess {
		return
	}
	if t.fails {
		t.status = statusCancelled
		if t.market != nil {
			e.market[t.market.id] = t.market
		}
		return
	}
	sd := seed{dc: t.dc}
	if t.market != nil {
		sd.product, sd.disks, sd.resets, sd.wol = t.market.name, t.market.disks, []string{"sw", "hw", "man"}, true
	} else {
		sd.product, sd.disks, sd.resets, sd.wol = t.std.id, t.std.disks, t.std.resetTypes, t.std.wol
	}
	s, err := e.addServerLocked(sd)
	if err != nil {
		t.status = statusCancelled
		return
	}
	e.armLocked(s, newRescue("linux", t.keys))
	// Delivered means booted into the armed rescue system: reset into it.
	_ = s.machine.Reset("hw")
	s.orderedAt = t.date
	t.server, t.status = s, statusReady
}

// pollLocked counts a read of t and delivers it once read often enough.
func (e *Emulator) pollLocked(t *transaction) {
	t.polls++
	if t.pace.Duration <= 0 && t.polls >= max(t.pace.Polls, 1) {
		e.settleLocked(t)
	}
}

func (e *Emulator) visibleLocked(t *transaction, kind orderKind) bool {
	return t != nil && t.kind == kind && e.now().Sub(t.date) < orderRetention
}

func (e *Emulator) listOrders(kind orderKind) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		e.mu.Lock()
		defer e.mu.Unlock()
		out := []any{}
		for _, id := range e.orderSeq {
			if t := e.orders[id]; e.visibleLocked(t, kind) {
				e.pollLocked(t)
				f := t.fields()
				if kind == kindMarket {
					// Robot lists market transactions without their
					// addons (Transaction4); by id it shows them.
					delete(f, "addons")
				}
				out = append(out, map[string]any{"transaction": f})
			}
		}
		if len(out) == 0 {
			writeError(w, notFound("No transactions found"))
			return
		}
		writeJSON(w, http.StatusOK, out)
	}
}

func (e *Emulator) getOrder(kind orderKind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		defer e.mu.Unlock()
		t := e.orders[r.PathValue("id")]
		if !e.visibleLocked(t, kind) {
			writeError(w, notFound("transaction %s not found", r.PathValue("id")))
			return
		}
		e.pollLocked(t)
		writeJSON(w, http.StatusOK, t.json())
	}
}

// SetOrderPace sets how the orders placed from now on are delivered.
func (e *Emulator) SetOrderPace(p OrderPace) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.orderPace = p
}

// FailNextOrders makes the next n orders end "cancelled" instead of
// delivering a server.
func (e *Emulator) FailNextOrders(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.failOrders = max(n, 0)
}

// LoseNextOrders commits the next n orders (standard or market) and drops
// each answer: the client cannot tell whether it ordered.
func (e *Emulator) LoseNextOrders(n int) error {
	return e.faults.AddRule(faults.Rule{Method: "POST", Path: "/order/*", Count: max(n, 1), Drop: true})
}
