package robot

import (
	"net/http"
	"slices"
)

func (s *server) resetJSON(withStatus bool) map[string]any {
	r := map[string]any{"server_ip": s.ip(), "server_ipv6_net": s.ipv6Net, "server_number": s.number, "type": s.resets}
	if withStatus {
		// Robot knows a server's power state only through a power button.
		r["operating_status"] = "not supported"
		if slices.Contains(s.resets, "power") {
			r["operating_status"] = map[bool]string{true: "off", false: "running"}[s.machine.Booted() == "off"]
		}
	}
	return r
}

// resetsListed is a server's reset as GET /reset lists it: without its
// power state.
func resetsListed(s *server) map[string]any { return s.resetJSON(false) }

// resettable serves h for a server that takes resets; any other is
// RESET_NOT_AVAILABLE.
func resettable(h serverHandler) serverHandler {
	return func(w http.ResponseWriter, r *http.Request, s *server) {
		if len(s.resets) == 0 {
			writeError(w, failure(http.StatusNotFound, codeResetNotAvailable, "reset is not available for server %d", s.number))
			return
		}
		h(w, r, s)
	}
}

func getReset(w http.ResponseWriter, _ *http.Request, s *server) {
	writeJSON(w, http.StatusOK, map[string]any{"reset": s.resetJSON(true)})
}

// reset delivers type to the machine. "man" asks a technician: the
// machine gets a hardware reset and the server takes no other reset for
// Options.ManualResetDuration.
func (e *Emulator) reset(w http.ResponseWriter, r *http.Request, s *server) {
	kind := r.PostForm.Get("type")
	switch {
	case kind == "":
		writeError(w, missingInput("type"))
		return
	case !slices.Contains(s.resets, kind):
		writeError(w, invalidInput("type "+kind+" is not offered for this server; it takes "+joinQuoted(s.resets), "type"))
		return
	case e.now().Before(s.manualUntil):
		writeError(w, failure(http.StatusConflict, codeResetManualActive, "a manual reset of server %d is under way", s.number))
		return
	}
	deliver := kind
	if kind == "man" {
		deliver = "hw"
		s.manualUntil = e.now().Add(e.opts.ManualResetDuration)
	}
	if err := s.machine.Reset(deliver); err != nil {
		writeError(w, failure(http.StatusInternalServerError, codeResetFailed, "resetting server %d failed", s.number))
		return
	}
	// The description's Reset3 leaves server_number out; the webservice
	// answers it, as a recorded answer (hrobot-go's reset_post.json) shows.
	writeJSON(w, http.StatusOK, map[string]any{"reset": map[string]any{
		"server_ip": s.ip(), "server_ipv6_net": s.ipv6Net, "server_number": s.number, "type": kind,
	}})
}

func joinQuoted(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += `"` + v + `"`
	}
	return out
}

func (s *server) wolJSON() map[string]any {
	return map[string]any{"wol": map[string]any{"server_ip": s.ip(), "server_ipv6_net": s.ipv6Net, "server_number": s.number}}
}

// wakeable serves h for a server that takes Wake on LAN; any other is
// WOL_NOT_AVAILABLE.
func wakeable(h serverHandler) serverHandler {
	return func(w http.ResponseWriter, r *http.Request, s *server) {
		if !s.wol {
			writeError(w, failure(http.StatusNotFound, codeWolNotAvailable, "Wake on LAN is not available for server %d", s.number))
			return
		}
		h(w, r, s)
	}
}

func getWol(w http.ResponseWriter, _ *http.Request, s *server) {
	writeJSON(w, http.StatusOK, s.wolJSON())
}

func sendWol(w http.ResponseWriter, _ *http.Request, s *server) {
	if err := s.machine.WakeOnLAN(); err != nil {
		writeError(w, failure(http.StatusInternalServerError, codeWolFailed, "sending Wake on LAN to server %d failed", s.number))
		return
	}
	writeJSON(w, http.StatusOK, s.wolJSON())
}
