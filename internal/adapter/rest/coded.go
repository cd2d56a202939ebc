package rest

import (
	"encoding/json"
	"fmt"
	"time"
)

// CodedError is an error answer in the commonest envelope of JSON APIs,
// {"error": {"code": "…", "message": "…"}}: Hetzner Cloud's, and the body
// the emulators' faults middleware writes unless told otherwise. A backend
// whose API answers so takes ReadCoded as its Config.Failed and classifies
// by Code.
type CodedError struct {
	Status        int `json:"-"`
	Code, Message string
	// RetryAfter is the answer's Retry-After header (Answer.RetryAfter).
	RetryAfter time.Duration `json:"-"`
}

func (e *CodedError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("HTTP %d without an error code", e.Status)
	}
	return fmt.Sprintf("%s (%s, HTTP %d)", e.Message, e.Code, e.Status)
}

// ReadCoded reads an error answer as a *CodedError. One that is not the
// envelope (a proxy's page, a web server's 404) keeps only its status and
// Retry-After, with Code empty, which no API code matches.
func ReadCoded(a Answer) error {
	var body struct{ Error CodedError }
	if json.Unmarshal(a.Body, &body) != nil {
		body.Error = CodedError{}
	}
	body.Error.Status, body.Error.RetryAfter = a.Status, a.RetryAfter()
	return &body.Error
}
