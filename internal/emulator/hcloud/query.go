package hcloud

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// queryIDs parses repeated numeric query values such as id=1&id=2.
func queryIDs(values []string) ([]int64, *apiError) {
	ids := make([]int64, 0, len(values))
	for _, v := range values {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, invalidFields(fieldError{Name: "id", Messages: []string{"Not a valid integer."}})
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// checkEnum refuses filter values the API does not know, so a client typo
// fails loudly instead of silently matching nothing.
func checkEnum(field string, values, allowed []string) *apiError {
	for _, v := range values {
		if !slices.Contains(allowed, v) {
			return invalidFields(fieldError{Name: field, Messages: []string{
				fmt.Sprintf("Must be one of: %s.", strings.Join(allowed, ", ")),
			}})
		}
	}
	return nil
}

// queryBool reads a boolean filter; absent is false.
func queryBool(field, v string) (bool, *apiError) {
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, invalidFields(fieldError{Name: field, Messages: []string{"Not a valid boolean."}})
	}
	return b, nil
}
