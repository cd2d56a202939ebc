package robot

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
)

// FuzzClassify: whatever an endpoint answers, each read, listing and delete
// of a server comes back classified, NotFound only on the webservice's own
// SERVER_NOT_FOUND in an error answer, and a server read holds to the
// contract's states.
func FuzzClassify(f *testing.F) {
	conformance.AnswerSeeds(f,
		`{"error":{"status":404,"code":"SERVER_NOT_FOUND","message":"Server not found"}}`,
		`{"error":{"status":404,"code":"NOT_FOUND","message":"Not found"}}`,
		`{"error":{"status":404,"code":"IP_NOT_FOUND","message":"IP not found"}}`,
		`{"error":{"status":403,"code":"RATE_LIMIT_EXCEEDED","message":"Rate limit exceeded","max_request":200,"interval":3600}}`,
		`{"error":{"status":400,"code":"INVALID_INPUT","message":"Invalid input parameters","missing":null,"invalid":["server_name"]}}`,
		`{"server":{"server_ip":"192.0.2.10","server_ipv6_net":"2001:db8::","server_number":321,"server_name":"compute:x","product":"AX41","dc":"FSN1-DC14","status":"ready","cancelled":false}}`,
		`[{"server":{"server_ip":null,"server_number":321,"server_name":"","status":"in process"}}]`,
		`[{"product":{"id":"AX41","name":"AX41","location":["FSN1"],"prices":[{"location":"FSN1","price":{"net":"x","gross":"1"}}]}}]`)
	answer := &conformance.Answer{}
	srv := httptest.NewServer(answer)
	f.Cleanup(srv.Close)
	d := definition(options{poll: adapter.Backoff{Initial: time.Millisecond, Max: time.Millisecond}, requestTimeout: 10 * time.Second})
	settings, err := d.Normalize(map[string]string{"user": "provider://robot_user", "password": "provider://robot_password", "endpoint": srv.URL, "ssh_key": testKey}, nil)
	if err != nil {
		f.Fatal(err)
	}
	// A fresh account per run: nothing one answer taught it (a cached
	// catalog, a listing) carries over into the next.
	newAdapter := func() adapter.Adapter {
		a, err := d.New(settings, adapter.Env{
			Secrets: adapter.SecretResolver{Provider: map[string]string{"robot_user": testUser, "robot_password": testPassword}},
			Clock:   instantClock{},
		})
		if err != nil {
			f.Fatal(err)
		}
		return a
	}
	f.Fuzz(func(t *testing.T, call uint8, status int, body []byte) {
		conformance.FuzzAnswer(t, answer, newAdapter, "321", call, status, body, notFoundProof)
	})
}

// notFoundProof is the webservice's proof that a server is absent: an
// error answer whose code is SERVER_NOT_FOUND.
func notFoundProof(status int, body []byte) bool {
	var env struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	return status >= 400 && status < 500 && json.Unmarshal(body, &env) == nil && env.Error != nil && env.Error.Code == "SERVER_NOT_FOUND"
}
