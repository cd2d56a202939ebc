package conformance

import (
	"net/http/httptest"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// FuzzTarget is an adapter's classify fuzz target whole: it seeds f with
// AnswerSeeds and the API's own answers apiOwn, serves each run's answer
// (Answer) on a loopback server, and runs FuzzAnswer on machine id and req
// against an adapter that open builds from that server's URL for each run
// afresh, so that nothing one answer taught it (a cached catalogue, a
// listing) carries over into the next. proof is the API's own proof of
// absence.
func FuzzTarget(f *testing.F, open func(base string) (adapter.Adapter, error), id string, req adapter.CreateRequest,
	proof func(status int, body []byte) bool, apiOwn ...string) {
	AnswerSeeds(f, apiOwn...)
	answer := &Answer{}
	srv := httptest.NewServer(answer)
	f.Cleanup(srv.Close)
	newAdapter := func() adapter.Adapter {
		a, err := open(srv.URL)
		if err != nil {
			f.Fatal(err)
		}
		return a
	}
	f.Fuzz(func(t *testing.T, call uint8, status int, body []byte) {
		FuzzAnswer(t, answer, newAdapter, id, req, call, status, body, proof)
	})
}
