package adapter

import "errors"

// ErrUnmarked is what a refusal of a machine without the managed mark
// wraps, for errors.Is.
var ErrUnmarked = errors.New("the machine carries no mark of the provider")

// Unmarked names a machine without the managed mark for the one refusal
// every adapter gives before it deletes, powers, changes or boots a
// machine (rule 8, only marked machines are changed, of the package
// documentation).
type Unmarked struct {
	// What is the call refused, the verb alone ("delete"): Machine follows
	// it, so the machine is named once ("delete: VM 100 ...").
	What string
	// Machine names the machine as the adapter's messages do
	// (`VM 100 ("web")`).
	Machine string
	// ID is the machine's id, the part of an import id after the account's
	// (an instance's import id is ACCOUNT_ID/MACHINE_ID).
	ID string
	// Lacks says what the machine lacks, in the backend's terms
	// (`is not tagged "compute"`).
	Lacks string
	// WayOut, when set, is one more way out after the import
	// (`or tag it "compute" in PVE if the provider created it`).
	WayOut string
}

// Refuse is the AccessDenied error for u: it names the call, the machine
// and its id, says why it is left alone and how to manage it, and wraps
// ErrUnmarked.
func (u Unmarked) Refuse() *Error {
	msg := u.What + ": " + u.Machine + " " + u.Lacks + ", so it is not managed by the provider and is left alone; " +
		"to manage it, import it (`terraform import`, or an import block with id = \"ACCOUNT_ID/" + u.ID + "\": the account's id, a slash, this id), " +
		"after which the next apply marks it"
	if u.WayOut != "" {
		msg += ", " + u.WayOut
	}
	return &Error{Code: AccessDenied, Err: ErrUnmarked, Message: msg}
}
