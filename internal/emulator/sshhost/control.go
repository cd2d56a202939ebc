package sshhost

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// ControlPrefix is where Handler serves, below the emulator's root.
const ControlPrefix = "/_emulator/ssh/"

// MachineStatus is what GET /_emulator/ssh/machines reports per machine.
type MachineStatus struct {
	Number         int         `json:"number"`
	Address        string      `json:"address"`
	Port           int         `json:"port"`
	Booted         string      `json:"booted"`
	Armed          bool        `json:"armed"`
	InstallRunning bool        `json:"install_running"`
	Installs       int         `json:"installs"`
	FirstBoot      []UnitState `json:"first_boot"`
}

// FaultSettings is the body of POST /_emulator/ssh/machines/{n}/faults;
// absent fields leave a fault as it is.
type FaultSettings struct {
	DropSessionsAfter *int    `json:"drop_sessions_after,omitempty"`
	DropNow           bool    `json:"drop_now,omitempty"`
	FailInstall       *string `json:"fail_install,omitempty"`
	HangInstall       *bool   `json:"hang_install,omitempty"`
	IgnoreSoftReset   *bool   `json:"ignore_soft_reset,omitempty"`
	FailFirstBoot     *bool   `json:"fail_first_boot,omitempty"`
}

// Apply sets the faults f names on m.
func (f FaultSettings) Apply(m *Machine) {
	if f.FailInstall != nil {
		m.FailInstall(*f.FailInstall)
	}
	if f.HangInstall != nil {
		m.HangInstall(*f.HangInstall)
	}
	if f.IgnoreSoftReset != nil {
		m.IgnoreSoftReset(*f.IgnoreSoftReset)
	}
	if f.FailFirstBoot != nil {
		m.FailFirstBoot(*f.FailFirstBoot)
	}
	if f.DropSessionsAfter != nil {
		m.DropSessionsAfter(*f.DropSessionsAfter)
	}
	if f.DropNow {
		m.DropNow()
	}
}

// Status reports the machine for the control API.
func (m *Machine) Status() MachineStatus {
	return MachineStatus{
		Number: m.number, Address: m.addr.String(), Port: m.farm.port, Booted: m.Booted(),
		Armed: m.Armed(), InstallRunning: m.InstallRunning(), Installs: m.Installs(),
		FirstBoot: m.FirstBootState(),
	}
}

// Handler serves the farm's control API under ControlPrefix, for the
// standalone emulator and tests in other processes:
//
//	GET    /_emulator/ssh/machines               every machine's status
//	GET    /_emulator/ssh/commands[?machine=N]   the exec lines received
//	GET    /_emulator/ssh/env[?machine=N]        the env requests refused
//	POST   /_emulator/ssh/machines/{n}/faults    FaultSettings
//	DELETE /_emulator/ssh/machines/{n}/faults    clear every fault
func (f *Farm) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+ControlPrefix+"machines", func(w http.ResponseWriter, r *http.Request) {
		out := []MachineStatus{}
		for _, m := range f.Machines() {
			out = append(out, m.Status())
		}
		writeJSON(w, http.StatusOK, out)
	})
	mux.HandleFunc("GET "+ControlPrefix+"commands", func(w http.ResponseWriter, r *http.Request) {
		n, ok := machineParam(w, r)
		if ok {
			writeJSON(w, http.StatusOK, f.journal.commandsOf(n))
		}
	})
	mux.HandleFunc("GET "+ControlPrefix+"env", func(w http.ResponseWriter, r *http.Request) {
		n, ok := machineParam(w, r)
		if ok {
			writeJSON(w, http.StatusOK, f.journal.envOf(n))
		}
	})
	faults := func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.PathValue("n"))
		m, ok := f.Machine(n)
		if err != nil || !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "no machine " + r.PathValue("n")})
			return
		}
		if r.Method == http.MethodDelete {
			m.ClearFaults()
			writeJSON(w, http.StatusOK, m.Status())
			return
		}
		var s FaultSettings
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "faults: " + err.Error()})
			return
		}
		s.Apply(m)
		writeJSON(w, http.StatusOK, m.Status())
	}
	mux.HandleFunc("POST "+ControlPrefix+"machines/{n}/faults", faults)
	mux.HandleFunc("DELETE "+ControlPrefix+"machines/{n}/faults", faults)
	return mux
}

func machineParam(w http.ResponseWriter, r *http.Request) (int, bool) {
	q := r.URL.Query().Get("machine")
	if q == "" {
		return 0, true
	}
	n, err := strconv.Atoi(q)
	if err != nil || n <= 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "machine " + strconv.Quote(q) + ": want a machine number"})
		return 0, false
	}
	return n, true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
