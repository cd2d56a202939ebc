package hcloud

import (
	"cmp"
	"crypto/md5"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"time"
)

// sshKey is an SSH public key stored in the project, referenced by servers
// at create time.
type sshKey struct {
	id          int64
	name        string
	fingerprint string
	publicKey   string
	labels      map[string]string
	created     time.Time
}

func (k *sshKey) wire() wireSSHKey {
	labels := maps.Clone(k.labels)
	if labels == nil {
		labels = map[string]string{}
	}
	return wireSSHKey{ID: k.id, Name: k.name, Fingerprint: k.fingerprint, PublicKey: k.publicKey,
		Labels: labels, Created: k.created.Format(time.RFC3339)}
}

// fingerprint is the API's MD5 fingerprint of an authorized_keys line.
func fingerprint(publicKey string) (string, error) {
	fields := strings.Fields(publicKey)
	if len(fields) < 2 {
		return "", fmt.Errorf("not an SSH public key")
	}
	blob, err := base64.StdEncoding.DecodeString(fields[1])
	if err != nil || len(blob) < 4 {
		return "", fmt.Errorf("not an SSH public key")
	}
	// The key blob starts with its own type name; it must agree with the
	// type in front of it.
	n := binary.BigEndian.Uint32(blob)
	if int(n) > len(blob)-4 || string(blob[4:4+n]) != fields[0] {
		return "", fmt.Errorf("not an SSH public key")
	}
	sum := md5.Sum(blob)
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02x", b)
	}
	return strings.Join(parts, ":"), nil
}

func (e *Emulator) sshKeyLocked(r string) *sshKey {
	for _, k := range e.sshKeys {
		if idOrName(r, k.id, k.name) {
			return k
		}
	}
	return nil
}

var sshKeySortKeys = sortKeys[*sshKey]{
	"id":   func(a, b *sshKey) int { return cmp.Compare(a.id, b.id) },
	"name": func(a, b *sshKey) int { return cmp.Compare(a.name, b.name) },
}

func (e *Emulator) listSSHKeys(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	l, err := readListing(q, e.pageSize(), nil, sshKeySortKeys, true)
	if err != nil {
		writeError(w, err)
		return
	}
	e.mu.Lock()
	var found []*sshKey
	for _, k := range e.sshKeys {
		if (q.Get("name") == "" || k.name == q.Get("name")) &&
			(q.Get("fingerprint") == "" || k.fingerprint == q.Get("fingerprint")) && l.sel.matches(k.labels) {
			found = append(found, k)
		}
	}
	out, meta := wirePage(found, l, (*sshKey).wire)
	e.mu.Unlock()
	writePage(w, r, "ssh_keys", out, meta)
}

func (e *Emulator) createSSHKey(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name      string             `json:"name"`
		PublicKey string             `json:"public_key"`
		Labels    *map[string]string `json:"labels"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, jsonError(err))
		return
	}
	var fields []fieldError
	if req.Name == "" {
		fields = append(fields, fieldError{Name: "name", Messages: []string{missingField}})
	}
	fp, fpErr := fingerprint(req.PublicKey)
	if fpErr != nil {
		fields = append(fields, fieldError{Name: "public_key", Messages: []string{"Invalid public key."}})
	}
	if req.Labels != nil {
		if fe := checkLabels(*req.Labels); fe != nil {
			fields = append(fields, *fe)
		}
	}
	if len(fields) > 0 {
		writeError(w, invalidFields(fields...))
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, k := range e.sshKeys {
		if k.name == req.Name {
			writeError(w, uniqueness("SSH key with the same name already exists", "name"))
			return
		}
		if k.fingerprint == fp {
			writeError(w, uniqueness("SSH key with the same fingerprint already exists", "public_key"))
			return
		}
	}
	k := &sshKey{id: e.nextIDLocked("ssh_key"), name: req.Name, fingerprint: fp,
		publicKey: strings.TrimSpace(req.PublicKey), created: time.Now().UTC().Truncate(time.Second)}
	if req.Labels != nil {
		k.labels = maps.Clone(*req.Labels)
	}
	e.sshKeys[k.id] = k
	writeJSON(w, http.StatusCreated, map[string]any{"ssh_key": k.wire()})
}

// lookupSSHKeyLocked returns the SSH key the path names.
func (e *Emulator) lookupSSHKeyLocked(r *http.Request) (*sshKey, *apiError) {
	id, _ := pathID(r, "id")
	k, ok := e.sshKeys[id]
	if !ok {
		return nil, notFound("ssh_key", id)
	}
	return k, nil
}

// sshKeyNameTakenLocked reports whether a key is named name.
func (e *Emulator) sshKeyNameTakenLocked(name string) bool {
	for _, k := range e.sshKeys {
		if k.name == name {
			return true
		}
	}
	return false
}

func (e *Emulator) getSSHKey(w http.ResponseWriter, r *http.Request) {
	withLocked(e, w, r, e.lookupSSHKeyLocked, func(k *sshKey) {
		writeJSON(w, http.StatusOK, map[string]any{"ssh_key": k.wire()})
	})
}

func (e *Emulator) updateSSHKey(w http.ResponseWriter, r *http.Request) {
	req, bad := readUpdate(r)
	if bad != nil {
		writeError(w, bad)
		return
	}
	withLocked(e, w, r, e.lookupSSHKeyLocked, func(k *sshKey) {
		if err := req.apply(&k.name, &k.labels, e.sshKeyNameTakenLocked, "SSH key with the same name already exists"); err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"ssh_key": k.wire()})
	})
}

func (e *Emulator) deleteSSHKey(w http.ResponseWriter, r *http.Request) {
	withLocked(e, w, r, e.lookupSSHKeyLocked, func(k *sshKey) {
		delete(e.sshKeys, k.id)
		w.WriteHeader(http.StatusNoContent)
	})
}
