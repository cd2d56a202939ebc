package tfdiag

import (
	"regexp"
	"strings"
)

// The one form of a summary. An error's is "Unable to <verb> <object>"
// ("Unable to create instance", "Unable to use account setting"): what the
// provider could not do, in lower case after the first word, with the
// value, the reason and the way out left to the detail. A warning's says
// what happened or what will ("Instance not refreshed", "Machine's rental
// will be cancelled"): nothing was refused, so never "Unable to". Neither
// ends with a period. TestSummariesFollowThePattern holds every summary in
// the source to it.
var (
	errorSummary   = regexp.MustCompile(`^Unable to [a-z]+( [a-z0-9_'-]+)+$`)
	warningSummary = regexp.MustCompile(`^[A-Z][^.\n]*[^.\n ]$`)
)

// CheckSummary says how summary breaks the form of an error's (isError) or
// a warning's summary; "" when it keeps it.
func CheckSummary(summary string, isError bool) string {
	switch {
	case isError && !errorSummary.MatchString(summary):
		return `is no error summary: use "Unable to <verb> <object>", in lower case after "Unable", e.g. "Unable to create instance"`
	case !isError && strings.HasPrefix(summary, "Unable to"):
		return `is a warning's summary: nothing was refused, so say what happened, e.g. "Instance not refreshed"`
	case !isError && !warningSummary.MatchString(summary):
		return "is no warning summary: a capitalised phrase on one line without a final period"
	}
	return ""
}
