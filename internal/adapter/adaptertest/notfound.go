package adaptertest

import (
	"encoding/json"
	"slices"
)

// CodedNotFound is the proof of absence of an API that answers errors as
// {"error":{"code":…}} (Hetzner Cloud, Toy Cloud): a 4xx whose code is one
// of codes, the API's own not-found codes. The fuzz targets hand it to
// conformance.FuzzAnswer, which allows NotFound only for an answer it
// accepts. A backend whose classify is a rest.Codes passes the codes its
// table places as NotFound (resttest.NotFoundCodes), so the table says them
// once; the API's spelling is each backend's own ("not_found",
// "server_not_found"), hence no default.
func CodedNotFound(codes ...string) func(status int, body []byte) bool {
	if len(codes) == 0 {
		panic("adaptertest.CodedNotFound: no not-found code given; pass the API's own (resttest.NotFoundCodes of its rest.Codes)")
	}
	return func(status int, body []byte) bool {
		var env struct {
			Error *struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		return status >= 400 && status < 500 && json.Unmarshal(body, &env) == nil && env.Error != nil && slices.Contains(codes, env.Error.Code)
	}
}
