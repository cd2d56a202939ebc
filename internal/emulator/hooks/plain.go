package hooks

import "net/http"

// The table of an API in the plainest REST shape, which a new emulator may
// take instead of spelling it out: its machines are one collection, its
// statuses mean what HTTP says, and its errors are the middleware's generic
// body with faults.DefaultCode's words. An API that differs in one place
// overrides that field only.

// Resource are the routes of machines kept under collection ("/servers"):
// list and create on the collection; get, update (PATCH) and delete on an
// item; power as a POST to power below an item ("/power").
func Resource(collection, power string) Routes {
	item := collection + "/{id}"
	return Routes{
		Get: Route{Method: http.MethodGet, Path: item}, List: Route{Method: http.MethodGet, Path: collection},
		Create: Route{Method: http.MethodPost, Path: collection}, Delete: Route{Method: http.MethodDelete, Path: item},
		Update: Route{Method: http.MethodPatch, Path: item}, Power: Route{Method: http.MethodPost, Path: item + power},
	}
}

// PlainAnswers answer each class with its HTTP status: a rate limit says
// when to come back in Retry-After, and a partial listing is a listing cut
// into pages of one machine, whose listing reads the middleware's page size
// (faults.Page), with every page after the first a 500.
func PlainAnswers() Answers {
	return Answers{
		ServerError: Answer{Status: http.StatusInternalServerError},
		RateLimited: Answer{Status: http.StatusTooManyRequests,
			Headers: func() map[string]string { return map[string]string{"Retry-After": "30"} }},
		AuthRefused:    Answer{Status: http.StatusForbidden},
		Locked:         Answer{Status: http.StatusLocked},
		PartialListing: Answer{Status: http.StatusInternalServerError, PageSize: 1},
	}
}

// PlainRevoked answers any request with 401 once the credentials are gone.
// It is a function, as PlainAnswers is, so that no emulator can change
// what another one takes.
func PlainRevoked() Answer {
	return Answer{Status: http.StatusUnauthorized, Message: "the credentials are not valid"}
}
