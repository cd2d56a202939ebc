package faults

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"time"
)

// dropAfter serves r with next into a writer nobody reads, so whatever the
// request changes is committed, and then closes the client's connection
// without a byte of response: the client sees a transport error.
func dropAfter(next http.Handler, w http.ResponseWriter, r *http.Request) {
	next.ServeHTTP(&discardWriter{header: http.Header{}}, r)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// HTTP/2 cannot be hijacked; aborting the handler resets the stream,
		// which the client sees the same way.
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// resetConn closes the client's connection without serving the request
// or sending a byte: the client sees a transport error and nothing was
// committed.
func resetConn(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		// A reset, not an orderly close, as a proxy that gives up sends.
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// abandon ends a call whose client has gone without a byte of answer. A
// handler that merely returned would have net/http answer "200 OK" with an
// empty body, and a client has gone some moments before its socket closes
// (a TLS client's close_notify comes first, and Go's transport takes an
// answer that races its own cancel): it would read a call it gave up on,
// held by a hang, as a success.
func abandon(w http.ResponseWriter, r *http.Request) {
	conn, _, err := http.NewResponseController(w).Hijack()
	switch {
	case err == nil:
		_ = conn.Close()
	case r.ProtoMajor >= 2:
		// HTTP/2 cannot be hijacked; aborting the handler resets the
		// stream instead of ending it with an answer.
		panic(http.ErrAbortHandler)
	}
	// Otherwise nothing carries the answer to a client (a recorder in a
	// test); returning writes none.
}

// answerLate serves r with next at once, so whatever the request changes
// is committed, and sends the answer only after d. A client that gives up
// first gets nothing, though its call took effect.
func answerLate(next http.Handler, w http.ResponseWriter, r *http.Request, d time.Duration) {
	held := &heldWriter{discardWriter: discardWriter{header: http.Header{}}}
	// The commit does not depend on the client: it is already under way.
	next.ServeHTTP(held, r.WithContext(context.WithoutCancel(r.Context())))
	// The server notices a client leaving only once the body is read to
	// its end; a handler may have stopped short.
	_, _ = io.Copy(io.Discard, r.Body)
	if !wait(r.Context(), d) {
		abandon(w, r)
		return
	}
	for k, v := range held.header {
		w.Header()[k] = v
	}
	if held.status == 0 {
		held.status = http.StatusOK
	}
	w.WriteHeader(held.status)
	_, _ = w.Write(held.body.Bytes())
}

// holdRequest takes r's body in at once, as a server that received the
// request has it, waits d whatever the client does meanwhile, and returns
// r detached from its client's context with the body it read, so the API
// runs it to the end even when the client has gone (its answer is then
// written to a closed connection and lost).
func holdRequest(r *http.Request, d time.Duration) *http.Request {
	body, _ := io.ReadAll(r.Body)
	wait(context.Background(), d)
	held := r.Clone(context.WithoutCancel(r.Context()))
	held.Body = io.NopCloser(bytes.NewReader(body))
	return held
}

type discardWriter struct {
	header http.Header
}

func (d *discardWriter) Header() http.Header         { return d.header }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}

// heldWriter keeps a response to send later.
type heldWriter struct {
	discardWriter
	status int
	body   bytes.Buffer
}

func (h *heldWriter) WriteHeader(status int) {
	if h.status == 0 {
		h.status = status
	}
}

func (h *heldWriter) Write(b []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	return h.body.Write(b)
}
