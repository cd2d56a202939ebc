// Package tfdiag turns classified adapter errors into Terraform diagnostics on
// the attribute they concern, and carries the few facts the Terraform-layer
// packages share (a secret that is not known until apply).
//
// Every diagnostic reads the same way (see CheckSummary): an error's summary
// is "Unable to <verb> <object>" ("Unable to create instance", "Unable to
// use account setting"), a warning's says what happened ("Instance not
// refreshed"); the detail names the value, the reason and the way out
// (WayOut for a class with nothing more specific to say). A test reads
// every summary in the source, so none can slip through.
//
// It imports internal/adapter and the plugin framework's diag and path
// packages only; resource packages use it so that every diagnostic reads the
// same way.
package tfdiag

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// ErrUnknownUntilApply marks a secret reference into the provider block's
// secrets map whose value Terraform does not know yet (it comes from a
// resource that is still to be created). Plan-time checks that need the
// secret step aside when they meet it; apply always has the value.
var ErrUnknownUntilApply = errors.New("the value is not known until apply")

// UnknownUntilApply reports whether err comes from a secret that is not known
// until apply.
func UnknownUntilApply(err error) bool { return errors.Is(err, ErrUnknownUntilApply) }

// Message is what a diagnostic shows of err: a classified error's message with
// its code, so the reader can tell a refusal from a passing failure. Adapter
// messages never hold secrets (the contract forbids it), and unclassified
// errors are printed only through their Error method.
func Message(err error) string {
	var e *adapter.Error
	if errors.As(err, &e) {
		if e.Message == "" {
			return "the backend answered " + string(e.Code)
		}
		return e.Message + " (" + string(e.Code) + ")"
	}
	return err.Error()
}

// Attribute maps an adapter field name ("offer_id", "token") onto the
// attribute path it came from; ok is false when the field has no attribute.
type Attribute func(field string) (p path.Path, ok bool)

// Fields maps field names one to one onto top-level attributes of the same
// name, limited to the given names.
func Fields(names ...string) Attribute {
	return func(field string) (path.Path, bool) {
		for _, n := range names {
			if n == field {
				return path.Root(n), true
			}
		}
		return path.Empty(), false
	}
}

// AddError appends err as an error. When the error names a field that at
// maps, the diagnostic is put on that attribute; detail is prefixed to the
// adapter's message and should say what was being done and the way out.
func AddError(diags *diag.Diagnostics, at Attribute, summary, detail string, err error) {
	if at != nil {
		if p, ok := at(adapter.FieldOf(err)); ok {
			diags.AddAttributeError(p, summary, join(detail, Message(err)))
			return
		}
	}
	diags.AddError(summary, join(detail, named(err)))
}

// named is the adapter's message, led by the field it concerns when the
// diagnostic cannot point at that attribute (one at leaves out, such as
// user_data, whose line Terraform would print) and the message does not
// name it already.
func named(err error) string {
	msg := Message(err)
	if f := adapter.FieldOf(err); f != "" && !mentions(msg, f) {
		return f + ": " + msg
	}
	return msg
}

// mentions reports whether msg has word as a word of its own: not inside a
// longer identifier (user_data is not named by user_data_file).
func mentions(msg, word string) bool {
	for i := 0; ; {
		j := strings.Index(msg[i:], word)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(word)
		before, _ := utf8.DecodeLastRuneInString(msg[:start])
		after, _ := utf8.DecodeRuneInString(msg[end:])
		if !wordRune(before) && !wordRune(after) {
			return true
		}
		i = start + 1
	}
}

// wordRune is a character of an identifier, as regexp's \b counts them.
func wordRune(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// AddWarning is AddError's warning twin.
func AddWarning(diags *diag.Diagnostics, at Attribute, summary, detail string, err error) {
	if at != nil {
		if p, ok := at(adapter.FieldOf(err)); ok {
			diags.AddAttributeWarning(p, summary, join(detail, Message(err)))
			return
		}
	}
	diags.AddWarning(summary, join(detail, named(err)))
}

// join puts the adapter's message in a paragraph of its own after detail,
// where it begins a sentence.
func join(detail, msg string) string {
	msg = sentence(msg)
	switch {
	case detail == "":
		return msg
	case msg == "":
		return detail
	}
	return detail + "\n\n" + msg
}

// sentence capitalises an adapter's message ("check the PVE API: …"),
// written to follow a colon, so it can begin a paragraph. Only a first word
// of lower-case letters is touched: one like api_token, proxmox.flavors or
// fsn1 is a name, whose spelling is the point.
func sentence(msg string) string {
	word, _, _ := strings.Cut(msg, " ")
	word = strings.TrimRight(word, ":,;")
	if word == "" || strings.IndexFunc(word, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:]
}

// PlanWayOut is WayOut for a check a plan made once and left to the apply:
// the plan did not retry a backend that failed or asked to slow down (the
// apply does, until its timeout), so WayOut's account of retries until the
// timeout would not be what happened.
func PlanWayOut(err error) string {
	if adapter.NoAnswer(err) || adapter.LimitPastTimeout(err) {
		return WayOut(err)
	}
	switch adapter.CodeOf(err) {
	case adapter.Transient:
		return "The backend failed or could not be reached when the plan tried it (once, without retrying); the apply checks again, " +
			"retrying until its timeout. If it keeps failing, check the account's endpoint and that the backend is up."
	case adapter.RateLimited:
		return "The backend asked to slow down when the plan tried it (once, without waiting); the apply checks again, waiting as the backend asks."
	}
	return WayOut(err)
}

// WayOut is the usual next step for an error of each code, for details that
// have nothing more specific to say.
//
// Failures the provider retries are told apart, since their ways out differ:
// a backend that failed (5xx) or could not be reached was retried until the
// timeout, so more time may help; one that asked to slow down needs time;
// one that never answered was not retried further, so more time cannot
// help and the endpoint is what to check. Only reads were sent a second
// time by the transport; a write is never sent twice, since the backend
// may have done it, so the words must not claim a resend for every call.
func WayOut(err error) string {
	if adapter.NoAnswer(err) {
		return "The backend's endpoint took the request but never answered it (a read is sent once more first; a write never is, since " +
			"the backend may have done it), so it was not retried further and a longer timeout would not help. " +
			"Check that the account's endpoint is right and the backend is up, then run the command again."
	}
	if adapter.LimitPastTimeout(err) {
		return "The backend's rate limit lets the next request through only after this operation's timeout, so the provider failed at once " +
			"instead of waiting; a longer timeout would not help. Run the command again after the time the error below names."
	}
	switch adapter.CodeOf(err) {
	case adapter.Transient:
		return "The backend failed or could not be reached, and kept failing while the provider retried it until the timeout. " +
			"Run the command again later, or raise the timeouts block's value to retry for longer."
	case adapter.RateLimited:
		return "The backend asked to slow down, and still did when the provider had retried until the timeout. " +
			"Run the command again later, or raise the timeouts block's value to wait for longer."
	case adapter.AccessDenied:
		// Not about a machine: AccessDenied is as often a refused token as a
		// machine the provider does not manage, which callers that act on
		// a machine explain themselves.
		return "The backend refused the account's credentials for this: check that the account's secret references resolve to a valid, unexpired token or password with the permissions it needs."
	case adapter.QuotaExceeded:
		return "The account's quota is used up; free resources or ask the backend's owner to raise the quota."
	case adapter.InvalidConfig:
		return "Fix the account configuration (compute_provider_account) or the provider block's secrets."
	case adapter.InvalidInput:
		return "Fix the value in the configuration."
	case adapter.Conflict:
		// Not "import it": as often the machine in the way is one that must
		// not be taken over (another state's, or named for another use),
		// which the error itself says.
		return "Something on the backend stands in the way of this; the error below names it and what to do about it."
	case adapter.InvalidState:
		// Not "wait": the state in the way is as often the account's (no
		// free server to claim, an order cancelled) as a machine's that
		// settles by itself; the error says which.
		return "The backend cannot do this in its current state; the error below says what stands in the way and what to do."
	case adapter.Unsupported:
		return "This adapter cannot do that; change the configuration so it is not needed."
	}
	return ""
}
