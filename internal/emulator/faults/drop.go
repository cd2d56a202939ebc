package faults

import "net/http"

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

type discardWriter struct {
	header http.Header
}

func (d *discardWriter) Header() http.Header         { return d.header }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}
