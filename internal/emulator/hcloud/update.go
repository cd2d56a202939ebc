package hcloud

import (
	"encoding/json"
	"net/http"
)

// updateBody is the body of PUT /servers/{id} and PUT /ssh_keys/{id}: a
// new name and the whole new set of labels, each kept as it is when absent
// (a name also when empty).
type updateBody struct {
	Name   *string            `json:"name"`
	Labels *map[string]string `json:"labels"`
}

// readUpdate decodes an update's body and refuses labels as the API does,
// before anything is looked up.
func readUpdate(r *http.Request) (updateBody, *apiError) {
	var req updateBody
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		return req, jsonError(err)
	}
	if req.Labels != nil {
		if fe := checkLabels(*req.Labels); fe != nil {
			return req, invalidFields(*fe)
		}
	}
	return req, nil
}
