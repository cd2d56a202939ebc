package robot

import (
	"crypto/md5"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"time"
)

// sshKey is a public key stored under /key.
type sshKey struct {
	name, fingerprint, typ string
	size                   int
	// data is the key as it was sent; authorized is its "type base64"
	// part, the line a machine's authorized_keys takes.
	data, authorized string
	created          time.Time
	seq              int
}

// keyTimeLayout is how Robot writes created_at.
const keyTimeLayout = "2006-01-02 15:04:05"

func (k *sshKey) json() map[string]any {
	return map[string]any{"key": map[string]any{
		"name": k.name, "fingerprint": k.fingerprint, "type": k.typ, "size": k.size,
		"data": k.data, "created_at": k.created.UTC().Format(keyTimeLayout),
	}}
}

// ref is the key as orders and rescue activations list it.
func (k *sshKey) ref() map[string]any {
	return map[string]any{"key": map[string]any{"name": k.name, "fingerprint": k.fingerprint, "type": k.typ, "size": k.size}}
}

// parseKey reads an OpenSSH public key line ("ssh-ed25519 AAAA… comment")
// into its Robot type, size and MD5 fingerprint (hex pairs joined by
// colons, Robot's key id).
func parseKey(data string) (*sshKey, error) {
	fields := strings.Fields(data)
	if len(fields) < 2 {
		return nil, errors.New("want an OpenSSH public key: TYPE BASE64 [COMMENT]")
	}
	blob, err := base64.StdEncoding.DecodeString(fields[1])
	if err != nil {
		return nil, errors.New("the key's second field is not base64")
	}
	parts, err := wireStrings(blob)
	if err != nil || len(parts) == 0 || string(parts[0]) != fields[0] {
		return nil, fmt.Errorf("the key data does not hold a %s key", fields[0])
	}
	k := &sshKey{data: strings.TrimSpace(data), authorized: fields[0] + " " + fields[1]}
	switch {
	case fields[0] == "ssh-ed25519":
		k.typ, k.size = "ED25519", 256
	case fields[0] == "ssh-rsa" && len(parts) == 3:
		k.typ, k.size = "RSA", new(big.Int).SetBytes(parts[2]).BitLen()
	case strings.HasPrefix(fields[0], "ecdsa-sha2-nistp"):
		k.typ = "ECDSA"
		_, err = fmt.Sscanf(strings.TrimPrefix(fields[0], "ecdsa-sha2-nistp"), "%d", &k.size)
		if err != nil {
			return nil, fmt.Errorf("unknown ECDSA curve %s", fields[0])
		}
	default:
		return nil, fmt.Errorf("key type %s is not one Robot takes (ssh-ed25519, ssh-rsa, ecdsa-sha2-*)", fields[0])
	}
	sum := md5.Sum(blob)
	hexes := make([]string, len(sum))
	for i, b := range sum {
		hexes[i] = fmt.Sprintf("%02x", b)
	}
	k.fingerprint = strings.Join(hexes, ":")
	return k, nil
}

// wireStrings splits an SSH wire blob into its length-prefixed strings.
func wireStrings(b []byte) ([][]byte, error) {
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 4 {
			return nil, errors.New("short blob")
		}
		n := binary.BigEndian.Uint32(b)
		if uint64(len(b)-4) < uint64(n) {
			return nil, errors.New("short blob")
		}
		out = append(out, b[4:4+n])
		b = b[4+n:]
	}
	return out, nil
}

func (e *Emulator) sortedKeysLocked() []*sshKey {
	out := make([]*sshKey, 0, len(e.keys))
	for _, k := range e.keys {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b *sshKey) int { return a.seq - b.seq })
	return out
}

// listKeys answers every key; with none, Robot answers 404 NOT_FOUND.
func (e *Emulator) listKeys(w http.ResponseWriter, _ *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.keys) == 0 {
		writeError(w, notFound("No keys found"))
		return
	}
	out := []any{}
	for _, k := range e.sortedKeysLocked() {
		out = append(out, k.json())
	}
	writeJSON(w, http.StatusOK, out)
}

func (e *Emulator) createKey(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	name, data := r.PostForm.Get("name"), r.PostForm.Get("data")
	var missing []string
	if name == "" {
		missing = append(missing, "name")
	}
	if data == "" {
		missing = append(missing, "data")
	}
	if len(missing) > 0 {
		writeError(w, missingInput(missing...))
		return
	}
	k, err := parseKey(data)
	if err != nil {
		writeError(w, invalidInput("data: "+err.Error(), "data"))
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if old := e.keys[k.fingerprint]; old != nil {
		writeError(w, failure(http.StatusConflict, codeKeyAlreadyExists, "a key with fingerprint %s exists already, named %q", k.fingerprint, old.name))
		return
	}
	e.keySeq++
	k.name, k.created, k.seq = name, e.now(), e.keySeq
	e.keys[k.fingerprint] = k
	writeJSON(w, http.StatusCreated, k.json())
}

func (e *Emulator) keyLocked(w http.ResponseWriter, r *http.Request) *sshKey {
	k := e.keys[r.PathValue("fp")]
	if k == nil {
		writeError(w, notFound("key %s not found", r.PathValue("fp")))
	}
	return k
}

func (e *Emulator) getKey(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if k := e.keyLocked(w, r); k != nil {
		writeJSON(w, http.StatusOK, k.json())
	}
}

func (e *Emulator) renameKey(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	e.mu.Lock()
	defer e.mu.Unlock()
	k := e.keyLocked(w, r)
	if k == nil {
		return
	}
	name := r.PostForm.Get("name")
	if name == "" {
		writeError(w, missingInput("name"))
		return
	}
	k.name = name
	writeJSON(w, http.StatusOK, k.json())
}

func (e *Emulator) deleteKey(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if k := e.keyLocked(w, r); k != nil {
		delete(e.keys, k.fingerprint)
		w.WriteHeader(http.StatusNoContent)
	}
}

// keysLocked resolves fingerprints sent as authorized_key, or names the
// ones not under /key.
func (e *Emulator) keysLocked(fingerprints []string) ([]*sshKey, *apiError) {
	out := make([]*sshKey, 0, len(fingerprints))
	for _, fp := range fingerprints {
		k := e.keys[fp]
		if k == nil {
			return nil, invalidInput("authorized_key "+fp+" is not the fingerprint of a key under /key; add the key first (POST /key)", "authorized_key")
		}
		out = append(out, k)
	}
	return out, nil
}

// authorizedKeys reads authorized_key[] (or authorized_key, repeated).
func authorizedKeys(r *http.Request) []string {
	return append(slices.Clone(r.PostForm["authorized_key[]"]), r.PostForm["authorized_key"]...)
}
