package robot

import (
	"crypto/rand"
	"math/big"
	"net/http"
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
	return map[string]any{"rescue": r}
}

// inactiveBoot is how GET /boot shows a boot system that is not armed.
func (s *server) inactiveBoot(extra map[string]any) map[string]any {
	b := map[string]any{"server_ip": s.ip(), "server_ipv6_net": s.ipv6Net, "server_number": s.number, "active": false, "password": nil}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func (e *Emulator) getBoot(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.lookupLocked(w, r)
	if s == nil {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"boot": map[string]any{
		"rescue": s.rescueJSON(s.rescue, true)["rescue"],
		"linux":  s.linuxJSON(s.linux, true)["linux"],
		"vnc":    s.inactiveBoot(map[string]any{"dist": standardDists[1:], "arch": []int{64}, "lang": []string{"en"}}),
		// No server here offers Windows (GET /server/{n} says
		// windows: false), so none is on offer and none is active.
		"windows": s.inactiveBoot(map[string]any{"os": []string{}, "dist": nil, "lang": nil}),
	}})
}

func (e *Emulator) getRescue(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s := e.lookupLocked(w, r); s != nil {
		writeJSON(w, http.StatusOK, s.rescueJSON(s.rescue, true))
	}
}

// activateRescue arms the machine's rescue system for its next boot with
// the keys named by fingerprint, and answers the rescue password and the
// rescue system's host keys. Once the machine booted into it, rescue is
// disarmed again, as Robot does.
func (e *Emulator) activateRescue(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.lookupLocked(w, r)
	if s == nil {
		return
	}
	// Robot's description requires os and arch both.
	if missing := missingFields(r.PostForm, "os", "arch"); len(missing) > 0 {
		writeError(w, missingInput(missing...))
		return
	}
	os := r.PostForm.Get("os")
	switch arch := r.PostForm.Get("arch"); {
	case os != "linux" && os != "vkvm":
		writeError(w, invalidInput("os "+os+" is not a rescue system; take linux or vkvm", "os"))
		return
	case arch != "64":
		writeError(w, invalidInput("arch "+arch+" is not offered; the rescue system is 64 bit", "arch"))
		return
	case s.rescue != nil:
		writeError(w, failure(http.StatusConflict, codeBootAlreadyEnabled, "the rescue system of server %d is armed already; deactivate it first (DELETE /boot/%d/rescue)", s.number, s.number))
		return
	case s.linux != nil:
		writeError(w, failure(http.StatusConflict, codeBootAlreadyEnabled, "server %d has a Linux installation active; deactivate it first (DELETE /boot/%d/linux)", s.number, s.number))
		return
	}
	keys, err := e.keysLocked(authorizedKeys(r))
	if err != nil {
		writeError(w, err)
		return
	}
	act := &rescue{os: os, keys: keys, password: rescuePassword(), hostKeys: s.machine.RescueHostKeys(), stopped: make(chan struct{})}
	e.armLocked(s, act)
	writeJSON(w, http.StatusOK, s.rescueJSON(act, true))
}

// armLocked arms act on s's machine and disarms it once the machine booted
// into rescue.
func (e *Emulator) armLocked(s *server, act *rescue) {
	booted := s.machine.BootedRescue()
	authorized := make([]string, len(act.keys))
	for i, k := range act.keys {
		authorized[i] = k.authorized
	}
	s.machine.ArmRescue(authorized)
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

func (e *Emulator) deactivateRescue(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.lookupLocked(w, r)
	if s == nil {
		return
	}
	if act := s.rescue; act != nil {
		s.machine.Disarm()
		act.stop()
		act.password = ""
		s.rescue = nil
	}
	writeJSON(w, http.StatusOK, s.rescueJSON(nil, false))
}

// lastRescue shows the last activation, without its password, as Robot
// does; a server never put into rescue has none.
func (e *Emulator) lastRescue(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.lookupLocked(w, r)
	if s == nil {
		return
	}
	if s.lastRescue == nil {
		writeError(w, notFound("server %d has never had its rescue system activated", s.number))
		return
	}
	writeJSON(w, http.StatusOK, s.rescueJSON(s.lastRescue, false))
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
