package rest

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// TestReadCoded: the envelope's code and message, the status and
// Retry-After beside them, and nothing but the status from a body that is
// not the envelope.
func TestReadCoded(t *testing.T) {
	for _, c := range []struct {
		body, retry string
		want        CodedError
		text        string
	}{
		{`{"error":{"code":"not_found","message":"server 7 not found"}}`, "", CodedError{Status: 404, Code: "not_found", Message: "server 7 not found"},
			"server 7 not found (not_found, HTTP 404)"},
		{`{"error":{"code":"rate_limit_exceeded","message":"slow down"}}`, "30", CodedError{Status: 404, Code: "rate_limit_exceeded", Message: "slow down", RetryAfter: 30 * time.Second},
			"slow down (rate_limit_exceeded, HTTP 404)"},
		{`<html>404 page not found</html>`, "", CodedError{Status: 404}, "HTTP 404 without an error code"},
		{`{"error":"a string"}`, "", CodedError{Status: 404}, "HTTP 404 without an error code"},
	} {
		err := ReadCoded(Answer{Status: 404, Header: http.Header{"Retry-After": {c.retry}}, Body: []byte(c.body)})
		var got *CodedError
		if !errors.As(err, &got) || *got != c.want || got.Error() != c.text {
			t.Errorf("ReadCoded(%s) = %#v %q, want %#v %q", c.body, got, err, c.want, c.text)
		}
	}
}
