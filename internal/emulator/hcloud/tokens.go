package hcloud

import (
	"crypto/subtle"
	"net/http"
)

// access is what a request's token may do.
type access int

const (
	denied access = iota
	readOnly
	readWrite
)

// errReadOnlyToken is the real API's answer to a write with a read-only
// token: 403 forbidden. The API description still lists 401 token_readonly
// for it, but hcloud-go deprecates that code in favour of forbidden, which
// is what the API sends today.
var errReadOnlyToken = &apiError{status: http.StatusForbidden, code: "forbidden",
	message: "insufficient permissions for this request: the token is read-only"}

// tokenAccess checks the bearer token. The read-only token is compared
// first, so a test that makes the main token read-only at run time (see
// SetReadOnlyToken) needs no second token.
func (e *Emulator) tokenAccess(r *http.Request) access {
	got := []byte(r.Header.Get("Authorization"))
	e.tokenMu.RLock()
	ro := e.readOnlyToken
	e.tokenMu.RUnlock()
	if ro != "" && subtle.ConstantTimeCompare(got, []byte("Bearer "+ro)) == 1 {
		return readOnly
	}
	if e.opts.Token == "" || subtle.ConstantTimeCompare(got, []byte("Bearer "+e.opts.Token)) == 1 {
		return readWrite
	}
	return denied
}

// authorize answers a request its token may not make and reports whether it
// did: an unknown token is unauthorized, and a read-only one may only read.
func (e *Emulator) authorize(w http.ResponseWriter, r *http.Request) bool {
	switch e.tokenAccess(r) {
	case denied:
		writeError(w, errUnauthorized)
		return true
	case readOnly:
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeError(w, errReadOnlyToken)
			return true
		}
	}
	return false
}

// SetReadOnlyToken makes token a read-only token of the project: it may GET
// anything and every other request is refused with 403 forbidden. Passing
// the emulator's own token makes it read-only, as when a project's token is
// replaced by a read-only one; "" removes the read-only token.
func (e *Emulator) SetReadOnlyToken(token string) {
	e.tokenMu.Lock()
	defer e.tokenMu.Unlock()
	e.readOnlyToken = token
}
