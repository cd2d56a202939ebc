package robot

import (
	"crypto/rand"
	"math/big"
	"net/http"
	"net/url"
	"sync"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
)

// rescue is one activation of the rescue system.
type rescue struct {
	os       string
	keys     []*sshKey
	password string // a secret: answered once armed, never logged or kept past disarming
	hostKeys []metal.HostKey

	stopOnce sync.Once
	stopped  chan struct{}
}

func (r *rescue) stop() { r.stopOnce.Do(func() { close(r.stopped) }) }

var rescueSystems = []string{"linux", "vkvm"}

func hostKeysJSON(keys []metal.HostKey) []any {
	out := make([]any, 0, len(keys))
	for _, k := range keys {
		out = append(out, map[string]any{"key": map[string]any{"fingerprint": k.SHA256, "type": k.Type, "size": k.Size}})
	}
	return out
}

func keyRefs(keys []*sshKey) []any {
	out := make([]any, 0, len(keys))
	for _, k := range keys {
		out = append(out, k.ref())
	}
	return out
}

// bootKind is one of the boot configurations under /boot/{n}/ (rescue,
// linux): what it takes and how it is shown, armed and withdrawn. Each
// route of a kind is served by one handler below, the same for every kind.
// A is the kind's activation.
type bootKind[A any] struct {
	// name is the route's last segment and the answers' key.
	name string
	// never ends the NOT_FOUND of …/last for a server never given one.
	never string
	// required are the form fields the description requires.
	required []string
	// slots are the server's armed activation (nil when none) and its last.
	slots func(s *server) (armed, last **A)
	// show is act as the answers show it, or what is on offer when act is
	// nil; the password goes only with withPassword.
	show func(s *server, act *A, withPassword bool) map[string]any
	// check refuses a form's values, or a boot configuration armed already.
	check func(s *server, f url.Values) *apiError
	// arm makes an activation of the form and arms it: on the machine, and
	// in the server's slots.
	arm func(e *Emulator, s *server, f url.Values, keys []*sshKey) *A
	// disarm withdraws an armed activation and forgets its password.
	disarm func(s *server, act *A)
}

func (k bootKind[A]) write(w http.ResponseWriter, s *server, act *A, withPassword bool) {
	writeJSON(w, http.StatusOK, map[string]any{k.name: k.show(s, act, withPassword)})
}

// get shows the armed activation, with its password, or what is on offer.
func (k bootKind[A]) get(w http.ResponseWriter, _ *http.Request, s *server) {
	armed, _ := k.slots(s)
	k.write(w, s, *armed, true)
}

// activate arms the kind for the machine's next boot with the keys named
// by fingerprint and answers the activation with its password. Only one
// boot configuration is armed at a time (BOOT_ALREADY_ENABLED).
func (k bootKind[A]) activate(e *Emulator) serverHandler {
	return func(w http.ResponseWriter, r *http.Request, s *server) {
		if missing := missingFields(r.PostForm, k.required...); len(missing) > 0 {
			writeError(w, missingInput(missing...))
			return
		}
		if err := k.check(s, r.PostForm); err != nil {
			writeError(w, err)
			return
		}
		keys, err := e.keysLocked(authorizedKeys(r))
		if err != nil {
			writeError(w, err)
			return
		}
		k.write(w, s, k.arm(e, s, r.PostForm, keys), true)
	}
}

// deactivate withdraws the armed activation, if any, and shows what is on
// offer.
func (k bootKind[A]) deactivate(w http.ResponseWriter, _ *http.Request, s *server) {
	if armed, _ := k.slots(s); *armed != nil {
		k.disarm(s, *armed)
		*armed = nil
	}
	k.write(w, s, nil, false)
}

// last shows the last activation without its password, as Robot does; a
// server never given one has none.
func (k bootKind[A]) last(w http.ResponseWriter, _ *http.Request, s *server) {
	_, last := k.slots(s)
	if *last == nil {
		writeError(w, notFound("server %d has never had %s", s.number, k.never))
		return
	}
	k.write(w, s, *last, false)
}

// missingFields names the fields of fields that f lacks or leaves empty.
func missingFields(f map[string][]string, fields ...string) []string {
	var out []string
	for _, k := range fields {
		if len(f[k]) == 0 || f[k][0] == "" {
			out = append(out, k)
		}
	}
	return out
}

// rescueBoot is the rescue system: armed for the next boot, disarmed
// again once the machine booted into it, as Robot does.
var rescueBoot = bootKind[rescue]{
	name: "rescue", never: "its rescue system activated",
	// Robot's description requires os and arch both.
	required: []string{"os", "arch"},
	slots:    func(s *server) (**rescue, **rescue) { return &s.rescue, &s.lastRescue },
	show:     (*server).rescueJSON,
	check:    checkRescue,
	arm: func(e *Emulator, s *server, f url.Values, keys []*sshKey) *rescue {
		act := newRescue(f.Get("os"), keys)
		e.armLocked(s, act)
		return act
	},
	disarm: func(s *server, act *rescue) {
		s.machine.Disarm()
		act.stop()
		act.password = ""
	},
}

// rescueJSON shows act, or the rescue systems on offer when act is nil.
// The password goes only with an armed activation.
func (s *server) rescueJSON(act *rescue, withPassword bool) map[string]any {
	r := map[string]any{
		"server_ip": s.ip(), "server_ipv6_net": s.ipv6Net, "server_number": s.number,
		"os": rescueSystems, "arch": []int{64}, "active": false, "password": nil,
		"authorized_key": []any{}, "host_key": []any{}, "boot_time": nil,
	}
	if act != nil {
		r["os"], r["arch"], r["active"] = act.os, 64, act == s.rescue
		r["authorized_key"], r["host_key"] = keyRefs(act.keys), hostKeysJSON(act.hostKeys)
		if withPassword {
			r["password"] = act.password
		}
	}
	return r
}

// inactiveBoot is how GET /boot shows a boot system that is not armed.
func (s *server) inactiveBoot(extra map[string]any) map[string]any {
	b := map[string]any{"server_ip": s.ip(), "server_ipv6_net": s.ipv6Net, "server_number": s.number, "active": false, "password": nil}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func getBoot(w http.ResponseWriter, _ *http.Request, s *server) {
	writeJSON(w, http.StatusOK, map[string]any{"boot": map[string]any{
		"rescue": s.rescueJSON(s.rescue, true),
		"linux":  s.linuxJSON(s.linux, true),
		"vnc":    s.inactiveBoot(map[string]any{"dist": standardDists[1:], "arch": []int{64}, "lang": []string{"en"}}),
		// No server here offers Windows (GET /server/{n} says
		// windows: false), so none is on offer and none is active.
		"windows": s.inactiveBoot(map[string]any{"os": []string{}, "dist": nil, "lang": nil}),
	}})
}

func checkRescue(s *server, f url.Values) *apiError {
	os := f.Get("os")
	switch arch := f.Get("arch"); {
	case os != "linux" && os != "vkvm":
		return invalidInput("os "+os+" is not a rescue system; take linux or vkvm", "os")
	case arch != "64":
		return invalidInput("arch "+arch+" is not offered; the rescue system is 64 bit", "arch")
	case s.rescue != nil:
		return failure(http.StatusConflict, codeBootAlreadyEnabled, "the rescue system of server %d is armed already; deactivate it first (DELETE /boot/%d/rescue)", s.number, s.number)
	case s.linux != nil:
		return failure(http.StatusConflict, codeBootAlreadyEnabled, "server %d has a Linux installation active; deactivate it first (DELETE /boot/%d/linux)", s.number, s.number)
	}
	return nil
}

// newRescue is an activation of rescue system os with a fresh password;
// its host keys are the machine's once armed (see armLocked).
func newRescue(os string, keys []*sshKey) *rescue {
	return &rescue{os: os, keys: keys, password: rescuePassword(), stopped: make(chan struct{})}
}

// armLocked arms act on s's machine, announces the host keys the machine
// made for this arming (fresh ones, as each of Robot's activations has),
// and disarms it once the machine booted into rescue.
func (e *Emulator) armLocked(s *server, act *rescue) {
	booted := s.machine.BootedRescue()
	authorized := make([]string, len(act.keys))
	for i, k := range act.keys {
		authorized[i] = k.authorized
	}
	s.machine.ArmRescue(authorized)
	act.hostKeys = s.machine.RescueHostKeys()
	s.rescue, s.lastRescue = act, act
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		select {
		case <-booted:
		case <-act.stopped:
			return
		case <-e.closed:
			return
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if s.rescue == act {
			s.machine.Disarm()
			s.rescue = nil
			act.password = ""
		}
	}()
}

const passwordAlphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// rescuePassword is a fresh random root password, as Robot makes one per
// activation.
func rescuePassword() string {
	b := make([]byte, 12)
	for i := range b {
		n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(passwordAlphabet))))
		b[i] = passwordAlphabet[n.Int64()]
	}
	return string(b)
}
