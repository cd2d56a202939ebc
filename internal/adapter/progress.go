package adapter

import (
	"context"
	"errors"
	"maps"
	"time"
)

// How the contract's waits speak. Every decision (retry, give up, poll
// again) is a DEBUG line; a wait that lasts gets an INFO line, so that a
// user running at the default level still sees why apply is quiet, and a
// WARN line when what it waits out is a failure being retried (a refresh
// against a backend that keeps answering 503 says so while it lasts, not
// only when the timeout ends it): first
// as soon as the wait will have lasted progressAfter by its next check, then
// at most once every progressEvery.
const (
	progressAfter = 5 * time.Second
	progressEvery = 10 * time.Second
)

// progress is one Retry or WaitFor as the log sees it. Times come from the
// injected clock, so tests see the INFO lines without waiting for them.
type progress struct {
	log   Logger
	clock Clock
	what  string
	start time.Time
	said  time.Time // the last INFO line; zero: none yet
}

func newProgress(ctx context.Context, clock Clock, what string) *progress {
	return &progress{log: LoggerFrom(ctx), clock: clock, what: what, start: clock.Now()}
}

func (p *progress) elapsed() time.Duration { return p.clock.Now().Sub(p.start) }

// debug writes a decision; fields get what and the time spent so far.
func (p *progress) debug(ctx context.Context, msg string, fields map[string]any) {
	fields["what"] = p.what
	fields["elapsed"] = roundDuration(p.elapsed()).String()
	p.log.Debug(ctx, msg, fields)
}

// waiting is called before each wait of the given length: it writes an
// INFO line when the whole wait will have lasted progressAfter by the end of
// this one, unless one was written less than progressEvery ago.
func (p *progress) waiting(ctx context.Context, msg string, wait time.Duration, fields map[string]any) {
	p.announce(ctx, msg, wait, fields, p.log.Info)
}

// retrying is waiting for a wait before a failed call is tried again: a
// WARN line, since something is failing.
func (p *progress) retrying(ctx context.Context, msg string, wait time.Duration, fields map[string]any) {
	p.announce(ctx, msg, wait, fields, p.log.Warn)
}

func (p *progress) announce(ctx context.Context, msg string, wait time.Duration, fields map[string]any,
	write func(context.Context, string, map[string]any)) {
	now := p.clock.Now()
	if now.Sub(p.start)+wait < progressAfter || (!p.said.IsZero() && now.Sub(p.said) < progressEvery) {
		return
	}
	p.said = now
	fields["what"] = p.what
	fields["elapsed"] = roundDuration(now.Sub(p.start)).String()
	fields["next_check_in"] = roundDuration(wait).String()
	write(ctx, msg, fields)
}

// roundDuration keeps log lines short: whole seconds past a second,
// milliseconds below.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}

// failure describes err for a log line: its code and, for a classified
// error, its message, which by the contract holds no secret and repeats
// user input only redacted (see Error and Redacted). Any other error's text
// is left out: it may be a transport error holding a URL with its query.
func failure(fields map[string]any, err error) map[string]any {
	fields["code"] = string(CodeOf(err))
	var e *Error
	switch {
	case errors.As(err, &e) && e.Message != "":
		fields["reason"] = e.Message
	case Canceled(err):
		fields["reason"] = "the operation's timeout or a cancellation ended the attempt"
	default:
		fields["reason"] = "unclassified error (text not logged)"
	}
	return fields
}

// into adds the last state a check reported, when there is one.
func (s *seenState) into(fields map[string]any) map[string]any {
	if s.state != "" {
		fields["last_state"] = s.state
	}
	return fields
}

// withField is a copy of fields with one more.
func withField(fields map[string]any, key string, value any) map[string]any {
	out := maps.Clone(fields)
	out[key] = value
	return out
}

// whyNot says why err ends the retries, for the DEBUG line of that decision.
func whyNot(err error) string {
	switch {
	case Canceled(err):
		return "cancelled or timed out"
	case NoAnswer(err):
		return "the backend did not answer; the request was already sent again once"
	}
	return "code " + string(CodeOf(err)) + " is not retried"
}
