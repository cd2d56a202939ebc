package adapter

import (
	"errors"
	"fmt"
	"time"
)

// RecoveryWindow is how long after a create an unconfirmed claim may still
// be adopted by another create with the same key. It is the time a user has
// to run an interrupted apply again and get its machine back without an
// import: long enough for a rerun by hand or a CI retry after a killed
// runner, short enough that a machine whose holder never refreshed it (an
// apply, then no plan) is not left open to another state for days. Past it,
// the rerun is refused with the way out (import the machine), which costs
// the user one command and never a machine.
const RecoveryWindow = time.Hour

// recoveryWindowText is RecoveryWindow as a message says it.
const recoveryWindowText = "one hour"

// ErrHeldElsewhere is what the refusal to adopt a machine that another state
// holds wraps, for errors.Is.
var ErrHeldElsewhere = errors.New("the machine is held by another Terraform state")

// Adoptable decides whether Create may adopt m, a machine it found carrying
// the create's idempotency key, for call (its claim, its account's name for
// messages) and a request whose fingerprint is fingerprint, at now. Every
// adapter asks it, so the rule is the same everywhere: nil means adopt (and
// write the create's claim onto the machine); otherwise the error says why
// not and what to do, and the caller writes nothing. what names the
// operation for the message.
//
// A machine carrying call's own claim is this very create's, its answer
// lost, and is always taken. Another claim is adopted only when it is
// unconfirmed and within RecoveryWindow of the time it was made: the claim
// of a create whose state may never have received the machine.
func Adoptable(what string, m Machine, call Call, fingerprint string, now time.Time) error {
	own := m.Claim != "" && m.Claim == call.Claim
	switch {
	case !m.Managed:
		return Errorf(Conflict,
			"%s: machine %s (%q) carries this resource's key but not the managed mark, so it is not taken over; import it to manage "+
				"it (`terraform import` or an import block with its id %s), or choose another name", what, m.ID, m.Name, m.ID).WithField(FieldName)
	case m.State == StateDeleting:
		return Errorf(Transient, "%s: machine %s (%q), created earlier for this resource, is still being deleted; the create can go ahead once it is gone", what, m.ID, m.Name)
	case !own && !m.Unconfirmed:
		return heldElsewhere(what, m, call.Account,
			"the state that created or imported it has confirmed its claim (a plan or apply refreshed it since)")
	case m.Fingerprint != fingerprint:
		return Errorf(Conflict,
			"%s: machine %s (%q) carries this instance's key (account and name) but was created with other settings (its fingerprint %s, "+
				"this request's %s: offer, image, location or user data differ). It is not taken over. If this is a replacement created "+
				"before the old machine is destroyed (create_before_destroy) under the same name, give the replacement another name or "+
				"remove create_before_destroy; if another configuration holds that machine, give this instance another name; if an "+
				"interrupted apply created it and the settings changed since, restore them, or delete that machine yourself once you "+
				"are sure no state holds it", what, m.ID, m.Name, m.Fingerprint, fingerprint).WithField(FieldName)
	case own:
		return nil
	}
	if !withinRecovery(m.Claim, now) {
		made, ok := ClaimTime(m.Claim)
		return heldElsewhere(what, m, call.Account, fmt.Sprintf(
			"its claim was never confirmed, but it was made %s, longer ago than the %s within which an interrupted apply adopts "+
				"its machine when run again (if this is that apply, run again too late, import the machine here)",
			claimAge(made, ok, now), recoveryWindowText))
	}
	return nil
}

// heldElsewhere is the one refusal of a machine another state holds: it
// names the machine, its account and both ways out. account is how the
// Terraform layer names the account (Call.Account); "" reads "this account".
func heldElsewhere(what string, m Machine, account, why string) *Error {
	on := "this account"
	if account != "" {
		on = "account " + account
	}
	return &Error{Code: Conflict, Field: FieldName, Err: ErrHeldElsewhere, Message: fmt.Sprintf(
		"%s: machine %s (%q) on %s already carries this resource's key (the same account and name), and another Terraform state "+
			"holds it: %s. It was not taken over and nothing was written. If this is another workspace or directory with the same "+
			"configuration, give the machine a name that differs per workspace (its name or hostname, e.g. \"%s-${terraform.workspace}\"; "+
			"a machine chosen by its id, such as a machine_id, needs another id there); to move "+
			"the machine to this state instead, run `terraform state rm` on it in the state that holds it, then import it here "+
			"(`terraform import` or an import block with ACCOUNT_ID/%s). If it is this state's own machine, which this create "+
			"replaces before destroying it (create_before_destroy) under the same name, give the replacement another name or "+
			"remove create_before_destroy", what, m.ID, m.Name, on, why, m.Name, m.ID)}
}

// claimAge says when a claim was made, for a message.
func claimAge(made time.Time, ok bool, now time.Time) string {
	if !ok {
		return "at an unknown time"
	}
	return made.UTC().Format(time.RFC3339) + " (" + now.Sub(made).Round(time.Minute).String() + " ago)"
}
