package rest

import (
	"errors"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Classify is the frame of a REST backend's one classify (rule 5, one
// classify, of internal/adapter's package documentation), which the
// backend's classify calls with its own readings: nil stays nil; an error
// already classified is kept; a *Failure goes to failure (its own
// Classified when failure is nil); the caller's cancel is Transient; the
// backend's own error answer, of type E (what its Config.Failed makes),
// goes to answer; anything else is Transient, marked unreachable when
// nothing reached the API, so that an unknown failure is retried and never
// taken for absence. name names the API in messages.
func Classify[E error](err error, name string, answer func(E) *adapter.Error, failure func(*Failure) error) error {
	if err == nil {
		return nil
	}
	var classified *adapter.Error
	if errors.As(err, &classified) {
		return classified
	}
	var f *Failure
	if errors.As(err, &f) {
		if failure != nil {
			return failure(f)
		}
		return f.Classified()
	}
	if adapter.Canceled(err) {
		return &adapter.Error{Code: adapter.Transient, Err: err,
			Message: "the call was canceled or its deadline passed before " + name + " answered"}
	}
	var own E
	if errors.As(err, &own) {
		return answer(own)
	}
	if adapter.CannotReach(err) {
		// The client hands its own transport errors over as a Failure;
		// this is for any that comes another way.
		err = adapter.MarkUnreachable(err)
	}
	return &adapter.Error{Code: adapter.Transient, Err: err, Message: "unexpected failure talking to " + name + ": " + ErrorClass(err)}
}
