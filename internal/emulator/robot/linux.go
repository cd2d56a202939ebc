package robot

import (
	"net/http"
	"slices"
)

// linuxBoot is one activation of the Linux installation: on the server's
// next boot Robot installs dist unattended and mails the root password.
// The emulator's machines have no installer of their own, so an
// activation is kept, shown and withdrawn as the webservice does, and the
// machine is left as it is; the provider installs from the rescue system
// instead.
type linuxBoot struct {
	dist, lang string
	keys       []*sshKey
	password   string // a secret: answered while active, never logged or kept past deactivation
}

// linuxLangs are the installation languages Robot offers.
var linuxLangs = []string{"en", "de"}

// linuxJSON shows act, or the distributions on offer when act is nil, as
// /boot/{n}/linux answers; the password goes only with an armed
// activation. host_key is empty: the installed system's keys are made by
// the installation.
func (s *server) linuxJSON(act *linuxBoot, withPassword bool) map[string]any {
	l := map[string]any{
		"server_ip": s.ip(), "server_ipv6_net": s.ipv6Net, "server_number": s.number,
		"dist": standardDists[1:], "arch": []int{64}, "lang": linuxLangs, "active": false, "password": nil,
		"authorized_key": []any{}, "host_key": []any{},
	}
	if act != nil {
		l["dist"], l["arch"], l["lang"], l["active"] = act.dist, 64, act.lang, act == s.linux
		l["authorized_key"] = keyRefs(act.keys)
		if withPassword {
			l["password"] = act.password
		}
	}
	return map[string]any{"linux": l}
}

func (e *Emulator) getLinux(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s := e.lookupLocked(w, r); s != nil {
		writeJSON(w, http.StatusOK, s.linuxJSON(s.linux, true))
	}
}

// activateLinux takes dist, arch and lang, all three required as Robot's
// description lists them, and authorized_key[] (fingerprints under /key).
// Only one boot configuration is active at a time: with rescue armed it
// answers BOOT_ALREADY_ENABLED.
func (e *Emulator) activateLinux(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.lookupLocked(w, r)
	if s == nil {
		return
	}
	f := r.PostForm
	if missing := missingFields(f, "dist", "arch", "lang"); len(missing) > 0 {
		writeError(w, missingInput(missing...))
		return
	}
	switch dist, arch, lang := f.Get("dist"), f.Get("arch"), f.Get("lang"); {
	case !slices.Contains(standardDists[1:], dist):
		writeError(w, invalidInput("dist "+dist+" is not offered; take one of "+joinQuoted(standardDists[1:]), "dist"))
		return
	case arch != "64":
		writeError(w, invalidInput("arch "+arch+" is not offered; the installation is 64 bit", "arch"))
		return
	case !slices.Contains(linuxLangs, lang):
		writeError(w, invalidInput("lang "+lang+" is not offered; take one of "+joinQuoted(linuxLangs), "lang"))
		return
	case s.rescue != nil || s.linux != nil:
		writeError(w, failure(http.StatusConflict, codeBootAlreadyEnabled, "server %d has a boot configuration active already; deactivate it first", s.number))
		return
	}
	keys, err := e.keysLocked(authorizedKeys(r))
	if err != nil {
		writeError(w, err)
		return
	}
	act := &linuxBoot{dist: f.Get("dist"), lang: f.Get("lang"), keys: keys, password: rescuePassword()}
	s.linux, s.lastLinux = act, act
	writeJSON(w, http.StatusOK, s.linuxJSON(act, true))
}

func (e *Emulator) deactivateLinux(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.lookupLocked(w, r)
	if s == nil {
		return
	}
	if s.linux != nil {
		s.linux.password = ""
		s.linux = nil
	}
	writeJSON(w, http.StatusOK, s.linuxJSON(nil, false))
}

// lastLinux shows the last activation without its password; a server
// never given one has none.
func (e *Emulator) lastLinux(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.lookupLocked(w, r)
	if s == nil {
		return
	}
	if s.lastLinux == nil {
		writeError(w, notFound("server %d has never had a Linux installation activated", s.number))
		return
	}
	writeJSON(w, http.StatusOK, s.linuxJSON(s.lastLinux, false))
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
