package fleet

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// The handlers of an API in the plainest REST shape, which a new emulator
// may take instead of writing them: its servers are one collection, its
// JSON names a server by Config.Noun ({"server": …}, {"servers": […]}),
// and its errors are the middleware's body. An API that differs in one
// route writes that handler only, with Item and the fleet's methods.

// List answers GET on the collection: ?label=KEY=VALUE selects, ?page=N
// (from 1) picks a page, and the answer is {"servers": […], "next_page":
// N}, 0 after the last page.
func (f *Fleet[S, P]) List(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	servers, next := f.Listed(r.URL.Query().Get("label"), page)
	faults.WriteJSON(w, http.StatusOK, map[string]any{f.cfg.Noun + "s": servers, "next_page": next})
}

// Show is the Item handler of GET: {"server": …}, and the read settles a
// transitional status.
func (f *Fleet[S, P]) Show(w http.ResponseWriter, _ *http.Request, s P) {
	faults.WriteJSON(w, http.StatusOK, map[string]any{f.cfg.Noun: read(s)})
}

// Patch is the Item handler of PATCH {"name", "labels"}: each one given
// replaces the server's, and the answer is the server, unread.
func (f *Fleet[S, P]) Patch(w http.ResponseWriter, r *http.Request, s P) {
	var in struct {
		Name   *string           `json:"name"`
		Labels map[string]string `json:"labels"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		// A real API refuses a body it cannot read; answering 200 would
		// let an adapter that sends a broken body pass here.
		f.api.WriteError(w, http.StatusBadRequest, "invalid_input", "the body is not JSON: "+err.Error())
		return
	}
	m := s.machine()
	if in.Name != nil {
		m.Name = *in.Name
	}
	if in.Labels != nil {
		m.Labels = in.Labels
	}
	faults.WriteJSON(w, http.StatusOK, map[string]any{f.cfg.Noun: *s})
}

// Remove is the Item handler of DELETE: the server is gone at once, 204.
func (f *Fleet[S, P]) Remove(w http.ResponseWriter, _ *http.Request, s P) {
	delete(f.byID, s.machine().ID)
	w.WriteHeader(http.StatusNoContent)
}

// PowerAction is the Item handler of POST {"action": "on"|"off"}: 202,
// and the server switches (Power); any other action is 400 invalid_input.
func (f *Fleet[S, P]) PowerAction(w http.ResponseWriter, r *http.Request, s P) {
	var in struct {
		Action string `json:"action"`
	}
	_ = json.NewDecoder(r.Body).Decode(&in)
	if in.Action != "on" && in.Action != "off" {
		f.api.WriteError(w, http.StatusBadRequest, "invalid_input", fmt.Sprintf("action %q: want on or off", in.Action))
		return
	}
	f.Power(s, in.Action == "on")
	w.WriteHeader(http.StatusAccepted)
}
