package adapter

import (
	"context"
	"errors"
	"time"
)

// CreateFlow is the create algorithm of the contract (rules 1, idempotent
// create, and 2, adoption and holding, in the package documentation), kept
// here once so that every adapter finds, adopts, makes and looks
// again the same way, and Adoptable is asked at the one place it must be:
//
//  1. Find the machine carrying the call's key (skipped when the caller's
//     listing just showed it absent, Call.KeyAbsent). Found, it is adopted
//     when Adoptable allows, and Take writes the create's claim onto it;
//     refused, nothing is written.
//  2. Otherwise Make the machine with its mark in the create call itself.
//     A Make that lost its free slot or server to a concurrent create
//     (ErrLostRace) goes back to 1, up to Attempts times.
//  3. After any other failure, unless the call was cancelled, look Again
//     (Find, unless the backend has its own way): a machine carrying the key
//     is the create's, committed before the failure reached us, and is
//     adopted as in 1. When the look-up answered and found nothing, a create
//     that got no answer at all (NoAnswer) made nothing and may be sent
//     again, which a Transient says.
//
// The backend supplies the four steps as callbacks over its own types; each
// returns classified errors (with its own what in the message). A callback
// may return a Machine with an ID beside an error: the machine exists and
// the caller keeps it (a create that failed after it was made).
type CreateFlow struct {
	// What names the create for messages, e.g. `create server "web-1"`.
	What string
	Call Call
	// Fingerprint is the request's fingerprint as the backend stores it (a
	// prefix where it has little room), compared by Adoptable.
	Fingerprint string
	// Clock gives Adoptable its now.
	Clock Clock

	Find func(ctx context.Context) (Machine, bool, error)
	Make func(ctx context.Context) (Machine, error)
	// Take writes the create's mark onto found, which Adoptable allowed,
	// and returns the machine as it is then. own is true when found already
	// carries the create's claim: this very create's machine, its answer
	// lost, which usually needs no write.
	Take func(ctx context.Context, found Machine, own bool) (Machine, error)
	// Again is the look-up after Make failed with err; Find when nil. Its
	// error is the create's verdict (a name another machine holds, say),
	// returned as it is; Find's error gives way to the create's own.
	Again func(ctx context.Context, err error) (Machine, bool, error)
	// Attempts bounds the rounds lost to concurrent creates; 1 when zero.
	Attempts int
}

// ErrLostRace is what Make returns when a concurrent create took the slot
// or server it was about to use: the flow looks the key up and makes again.
var ErrLostRace = errors.New("a concurrent create took the slot")

// CheckCall refuses a create call the contract cannot honour, before any
// request: one without an idempotency key (rule 1 finds the machine by
// it), or whose claim is not one NewClaimAt gives (IsClaim), which every
// backend's labels, tags and names take. An adapter calls it first when it
// reads the backend before Run; Run calls it too.
func CheckCall(call Call) error {
	switch {
	case call.IdempotencyKey == "":
		return Errorf(InvalidInput, "no idempotency key was given; every create needs one")
	case !IsClaim(call.Claim):
		return Errorf(InvalidInput, "the claim is not 32 lower-case hex digits")
	}
	return nil
}

// Run runs the flow, after CheckCall.
func (f CreateFlow) Run(ctx context.Context) (Machine, error) {
	if err := CheckCall(f.Call); err != nil {
		return Machine{}, Within(f.What, err)
	}
	attempts := max(f.Attempts, 1)
	for attempt := 0; ; attempt++ {
		if attempt > 0 || !f.Call.KeyAbsent {
			found, ok, err := f.Find(ctx)
			if err != nil {
				return Machine{}, err
			}
			if ok {
				return f.adopt(ctx, found)
			}
		}
		m, err := f.Make(ctx)
		switch {
		case err == nil:
			return m, nil
		case !errors.Is(err, ErrLostRace):
			return f.afterFailed(ctx, m, err)
		case attempt+1 >= attempts:
			return Machine{}, Errorf(Transient, "%s: concurrent creates took every free slot or server this one tried, %d times in a row; it can be tried again", f.What, attempts)
		}
	}
}

// afterFailed decides what a failed Make means: the backend may have
// committed it before the failure reached us.
func (f CreateFlow) afterFailed(ctx context.Context, made Machine, err error) (Machine, error) {
	if made.ID != "" || ctx.Err() != nil {
		// Made and then failed, or cut short: the caller keeps what there
		// is, and a rerun finds the rest by its key.
		return made, err
	}
	var found Machine
	var ok bool
	if f.Again != nil {
		var verdict error
		if found, ok, verdict = f.Again(ctx, err); verdict != nil {
			return Machine{}, verdict
		}
	} else {
		var lookErr error
		if found, ok, lookErr = f.Find(ctx); lookErr != nil {
			// The create's own error says more than the look-up's.
			return Machine{}, err
		}
	}
	switch {
	case ok:
		return f.adopt(ctx, found)
	case NoAnswer(err):
		// The look-up that just answered proves the create made nothing
		// (yet: one committed late is found by the next attempt's look-up,
		// or refused by the backend's own uniqueness), so it may be sent
		// again. The error no longer carries ErrNoAnswer, which would stop
		// the caller's retry.
		return Machine{}, Errorf(Transient, "%s: the backend did not answer the create, and no machine carries this resource's key; the create can be sent again", f.What)
	}
	return Machine{}, err
}

// adopt takes found when Adoptable allows it, through Take, and says on the
// machine whether it was an adoption.
func (f CreateFlow) adopt(ctx context.Context, found Machine) (Machine, error) {
	now := time.Now()
	if f.Clock != nil {
		now = f.Clock.Now()
	}
	if err := Adoptable(f.What, found, f.Call, f.Fingerprint, now); err != nil {
		return Machine{}, err
	}
	own := found.Claim != "" && found.Claim == f.Call.Claim
	m, err := f.Take(ctx, found, own)
	if err != nil {
		return m, err
	}
	if !own {
		// Found under another claim: an interrupted apply's, or an
		// unconfirmed one of another state's (see Adoptable).
		m.Adopted, m.PriorClaim = true, found.Claim
	}
	return m, nil
}
