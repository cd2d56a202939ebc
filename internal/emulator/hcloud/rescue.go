package hcloud

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Rescue, as the API describes it: enable_rescue arms the rescue system
// (rescue_enabled turns true once its action succeeds) and answers a root
// password for it; the next restart of the server (a reset, a reboot it
// honours, or a power-on) boots the rescue system instead of its disk, and
// that boot disarms it ("automatically disabled when you first boot into
// it"). disable_rescue disarms it without a boot. The emulator records
// which system a server runs, so tests can tell a server that booted into
// rescue from one that was only armed. The API also disarms rescue that is
// not used for 60 minutes; the emulator does not model that expiry, so an
// armed rescue waits for the next boot however long it takes.

// enableRescueRequest is the body of POST /servers/{id}/actions/enable_rescue.
type enableRescueRequest struct {
	Type    *string `json:"type"`
	SSHKeys []int64 `json:"ssh_keys"`
}

// rescueAction serves enable_rescue and disable_rescue; it reports false
// for any other command.
func (e *Emulator) rescueAction(w http.ResponseWriter, r *http.Request, name string) bool {
	if name != "enable_rescue" && name != "disable_rescue" {
		return false
	}
	var req enableRescueRequest
	if name == "enable_rescue" {
		// The description marks the body required; an empty object, or
		// none, takes the defaults, as hcloud-go always sends one.
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil && !errors.Is(err, io.EOF) {
			writeError(w, jsonError(err))
			return true
		}
		if req.Type != nil && *req.Type != "linux64" {
			writeError(w, invalidFields(fieldError{Name: "type", Messages: []string{"unsupported rescue type " + *req.Type}}))
			return true
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.lookupServerLocked(r)
	if err != nil {
		writeError(w, err)
		return true
	}
	for _, id := range req.SSHKeys {
		if _, ok := e.sshKeys[id]; !ok {
			writeError(w, invalidInput("ssh key %d not found", id))
			return true
		}
	}
	if s.busy > 0 {
		writeError(w, locked("server", s.id))
		return true
	}
	now := time.Now()
	if name == "disable_rescue" {
		a := e.startActionLocked(s, "disable_rescue", now)
		a.rescue = rescueDisarm
		e.advanceLocked(now, nil)
		writeJSON(w, http.StatusCreated, map[string]any{"action": a.wire()})
		return true
	}
	a := e.startActionLocked(s, "enable_rescue", now)
	a.rescue, a.rescueKeys = rescueArm, slices.Clone(req.SSHKeys)
	e.advanceLocked(now, nil)
	writeJSON(w, http.StatusCreated, map[string]any{"action": a.wire(), "root_password": randomPassword()})
	return true
}

// rescueEffect is what a finished action does to a server's rescue system.
type rescueEffect int

const (
	rescueNone   rescueEffect = iota
	rescueArm                 // enable_rescue
	rescueDisarm              // disable_rescue
)

// rescueLocked applies a's effect on s's rescue system once a succeeded:
// arming or disarming it, or, for a boot of the guest, running the rescue
// system when it was armed (and disarming it) or the disk otherwise, at
// once or after Options.BootReads reads of the server.
func (e *Emulator) rescueLocked(s *server, a *action) {
	switch {
	case a.rescue == rescueArm:
		// The keys are the server's only once the arming succeeded.
		s.rescueEnabled, s.rescueKeys = true, a.rescueKeys
	case a.rescue == rescueDisarm:
		s.rescueEnabled = false
	case a.boots && e.opts.BootReads > 0:
		s.bootReads = e.opts.BootReads
	case a.boots:
		bootLocked(s)
	}
}

// bootLocked ends s's guest boot: the rescue system when it was armed,
// which the boot disarms, or the disk.
func bootLocked(s *server) {
	s.inRescue, s.rescueEnabled, s.bootReads = s.rescueEnabled, false, 0
}

// countBootReadLocked counts a read of s towards the guest boot it is in.
func countBootReadLocked(s *server) {
	if s.bootReads > 0 {
		if s.bootReads--; s.bootReads == 0 {
			bootLocked(s)
		}
	}
}

// InRescue reports whether server id runs the rescue system it booted into.
func (e *Emulator) InRescue(id int64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advanceLocked(time.Now(), nil)
	s, ok := e.servers[id]
	return ok && s.inRescue
}

// ExamplePublicKey is a well-formed public key for tests that seed a
// project key with AddSSHKey; no private half is kept anywhere.
const ExamplePublicKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJ3mDIsdtWOFgRdA2wK0wsXxJCEMAdD3mEmxoMrhWc0 ops@example"

// ExampleCIPublicKey is a second one, for a project with two keys.
const ExampleCIPublicKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHtn0EJPzIHOLAfGOWUIVF6h2+OqeYzSdx3lwLBvfbVx ci@example"

// AddSSHKey seeds a project SSH key as if it had been uploaded outside the
// provider and returns its id. It panics on a taken name or a line that is
// not a public key, since those are mistakes in the test.
func (e *Emulator) AddSSHKey(name, publicKey string) int64 {
	fp, err := fingerprint(publicKey)
	if err != nil || name == "" {
		panic(fmt.Sprintf("hcloud emulator: AddSSHKey: invalid key %q: %v", name, err))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, k := range e.sshKeys {
		if k.name == name || k.fingerprint == fp {
			panic(fmt.Sprintf("hcloud emulator: AddSSHKey: key %q is already in the project", name))
		}
	}
	k := &sshKey{id: e.nextIDLocked("ssh_key"), name: name, fingerprint: fp, publicKey: strings.TrimSpace(publicKey),
		created: time.Now().UTC().Truncate(time.Second)}
	e.sshKeys[k.id] = k
	return k.id
}

// RescueKeys returns the SSH key ids the last enable_rescue of server id that
// succeeded armed its rescue system with.
func (e *Emulator) RescueKeys(id int64) []int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s, ok := e.servers[id]; ok {
		return slices.Clone(s.rescueKeys)
	}
	return nil
}
