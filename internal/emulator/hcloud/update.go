package hcloud

import (
	"encoding/json"
	"maps"
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

// apply renames and relabels, as PUT does: an absent or empty name keeps
// the one there is, a name that taken says another holds is refused with
// why, and labels, when given, replace them all.
func (req updateBody) apply(name *string, labels *map[string]string, taken func(string) bool, why string) *apiError {
	if req.Name != nil && *req.Name != "" && *req.Name != *name {
		if taken(*req.Name) {
			return uniqueness(why, "name")
		}
		*name = *req.Name
	}
	if req.Labels != nil {
		*labels = maps.Clone(*req.Labels)
	}
	return nil
}
