package robot

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
)

// ServerSeed is a rented server to add: what POST /_emulator/robot/servers
// takes.
type ServerSeed struct {
	// Product is a standard product id ("AX42", the default).
	Product string `json:"product"`
	// DC is a datacenter of one of the product's locations ("FSN1-DC14");
	// the product's first location's if empty.
	DC string `json:"dc"`
	// Name is the server name; "" is unnamed, as a newly rented server is.
	Name string `json:"name"`
}

// Seeded is a server as the seeding API reports it.
type Seeded struct {
	Number  int    `json:"server_number"`
	IP      string `json:"server_ip"`
	Name    string `json:"server_name"`
	Product string `json:"product"`
	DC      string `json:"dc"`
	UUID    string `json:"uuid"`
}

// AddServer rents a server behind the API's back, as one rented in the
// Robot panel: a fresh machine from the farm, booted from its empty disk.
func (e *Emulator) AddServer(sd ServerSeed) (Seeded, error) {
	if sd.Product == "" {
		sd.Product = "AX42"
	}
	p := findProduct(sd.Product)
	if p == nil {
		ids := make([]string, len(catalog))
		for i, c := range catalog {
			ids[i] = c.id
		}
		return Seeded{}, fmt.Errorf("product %q: no such product; take one of %s", sd.Product, strings.Join(ids, ", "))
	}
	if sd.DC == "" {
		sd.DC = datacenters[p.locations[0]]
	}
	if loc, _, _ := strings.Cut(sd.DC, "-"); !slices.Contains(p.locations, loc) || !strings.Contains(sd.DC, "-DC") {
		return Seeded{}, fmt.Errorf("dc %q: %s is offered in %s; give a datacenter such as %s", sd.DC, p.id, strings.Join(p.locations, ", "), datacenters[p.locations[0]])
	}
	if err := checkServerName(sd.Name); err != nil {
		return Seeded{}, fmt.Errorf("name: %s", err.message)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.addServerLocked(seed{product: p.id, dc: sd.DC, name: sd.Name, disks: p.disks, resets: p.resetTypes, wol: p.wol})
	if err != nil {
		return Seeded{}, err
	}
	return s.seeded(), nil
}

func (s *server) seeded() Seeded {
	return Seeded{Number: s.number, IP: s.ip(), Name: s.name, Product: s.product, DC: s.dc, UUID: s.uuid}
}

// Servers lists the servers as the seeding API reports them.
func (e *Emulator) Servers() []Seeded {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []Seeded{}
	for _, s := range e.sortedServersLocked() {
		out = append(out, s.seeded())
	}
	return out
}

// Machine returns server number's machine, so a test can watch what the
// webservice did to it.
func (e *Emulator) Machine(number int) (metal.Machine, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.servers[number]
	if s == nil {
		return nil, false
	}
	return s.machine, true
}

// Rename names a server behind the API's back, as the Robot panel does.
func (e *Emulator) Rename(number int, name string) error {
	if err := checkServerName(name); err != nil {
		return fmt.Errorf("name: %s", err.message)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.servers[number]
	if s == nil {
		return fmt.Errorf("no server %d", number)
	}
	s.name = name
	return nil
}

// AddKey stores a public key under /key, as the Robot panel does, and
// returns its fingerprint.
func (e *Emulator) AddKey(name, data string) (string, error) {
	k, err := parseKey(data)
	if err != nil {
		return "", err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.keys[k.fingerprint] == nil {
		e.keySeq++
		k.name, k.created, k.seq = name, e.now(), e.keySeq
		e.keys[k.fingerprint] = k
	}
	return k.fingerprint, nil
}

// orderControl is what POST /_emulator/robot/orders takes: the pace of
// orders placed from then on and how many of the next ones fail or lose
// their answer.
type orderControl struct {
	Polls    *int             `json:"polls"`
	Duration *faults.Duration `json:"duration"`
	FailNext int              `json:"fail_next"`
	LoseNext int              `json:"lose_next"`
}

// control is the emulator's own control routes beside the faults' under
// ControlPrefix: GET and POST /servers (seed rented servers), GET, POST and
// DELETE /orders (how orders are delivered).
func (e *Emulator) control() map[string]http.Handler {
	initial := e.opts.Orders
	pace := func(w http.ResponseWriter) {
		e.mu.Lock()
		p := e.orderPace
		e.mu.Unlock()
		writeJSON(w, http.StatusOK, p)
	}
	refuse := func(w http.ResponseWriter, err error) {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
	}
	return map[string]http.Handler{
		"GET /servers": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, e.Servers()) }),
		"POST /servers": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var sd ServerSeed
			if err := decodeStrict(r.Body, &sd); err != nil {
				refuse(w, fmt.Errorf("reading the server: %w; send {\"product\": \"AX42\", \"dc\": \"FSN1-DC14\", \"name\": \"\"}", err))
				return
			}
			s, err := e.AddServer(sd)
			if err != nil {
				refuse(w, err)
				return
			}
			writeJSON(w, http.StatusCreated, s)
		}),
		"GET /orders": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { pace(w) }),
		"POST /orders": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var c orderControl
			if err := decodeStrict(r.Body, &c); err != nil {
				refuse(w, fmt.Errorf("reading the order settings: %w; send {\"polls\": 3}, {\"duration\": \"10s\"}, {\"fail_next\": 1} or {\"lose_next\": 1}", err))
				return
			}
			if c.Duration != nil && *c.Duration < 0 {
				refuse(w, fmt.Errorf("duration %s: want 0 (delivered after polls) or a positive duration", c.Duration.Std()))
				return
			}
			e.mu.Lock()
			if c.Polls != nil {
				e.orderPace.Polls = *c.Polls
			}
			if c.Duration != nil {
				e.orderPace.Duration = *c.Duration
			}
			if c.FailNext > 0 {
				e.failOrders = c.FailNext
			}
			e.mu.Unlock()
			if c.LoseNext > 0 {
				if err := e.LoseNextOrders(c.LoseNext); err != nil {
					refuse(w, err)
					return
				}
			}
			pace(w)
		}),
		"DELETE /orders": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			e.SetOrderPace(initial)
			e.FailNextOrders(0)
			w.WriteHeader(http.StatusNoContent)
		}),
	}
}

func decodeStrict(body io.Reader, v any) error {
	dec := json.NewDecoder(io.LimitReader(body, 1<<16))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// SSHPort is the port the servers' SSH answers on, each on its own
// address: the farm's.
func (e *Emulator) SSHPort() int { return e.opts.Farm.SSHPort() }
