package adaptertest

import "encoding/json"

// CodedNotFound is the proof of absence of an API that answers errors as
// {"error":{"code":…}} (Hetzner Cloud, Toy Cloud): a 4xx whose code is
// not_found. The fuzz targets hand it to conformance.FuzzAnswer, which
// allows NotFound only for an answer it accepts.
func CodedNotFound(status int, body []byte) bool {
	var env struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	return status >= 400 && status < 500 && json.Unmarshal(body, &env) == nil && env.Error != nil && env.Error.Code == "not_found"
}
