package adapter

import (
	"context"
	"errors"
	"testing"
	"time"
)

// fixedClock is a Clock at one instant.
type fixedClock struct{ now time.Time }

func (c fixedClock) Now() time.Time                       { return c.now }
func (c fixedClock) After(time.Duration) <-chan time.Time { return nil }

// TestCreateFlow runs the contract's create algorithm on scripted backend
// steps and counts the writes (Make, Take) each case sends.
func TestCreateFlow(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	call := Call{IdempotencyKey: "k", Claim: NewClaimAt(now)}
	earlier := NewClaimAt(now.Add(-5 * time.Minute))
	pending := Machine{ID: "7", Name: "web", Managed: true, Key: "k", Fingerprint: "fp", Claim: earlier, Unconfirmed: true}
	confirmed := pending
	confirmed.Unconfirmed = false
	own := pending
	own.Claim = call.Claim
	noAnswer := &Error{Code: Transient, Err: ErrNoAnswer, Message: "no answer"}
	for _, tc := range []struct {
		name                 string
		keyAbsent            bool
		finds                []*Machine // what each Find returns, in order; nil for none
		makes                []error    // what each Make returns
		again                func(error) (Machine, bool, error)
		wantID               string
		wantCode             Code
		adopted              bool
		wantMakes, wantTakes int
	}{
		{name: "nothing found: made", finds: []*Machine{nil}, makes: []error{nil}, wantID: "new", wantMakes: 1},
		{name: "key absent skips the look-up", keyAbsent: true, makes: []error{nil}, wantID: "new", wantMakes: 1},
		{name: "an unconfirmed claim within the window is adopted", finds: []*Machine{&pending}, wantID: "7", adopted: true, wantTakes: 1},
		{name: "a confirmed claim is refused, nothing written", finds: []*Machine{&confirmed}, wantCode: Conflict},
		{name: "the create's own claim is taken, no adoption", finds: []*Machine{&own}, wantID: "7", wantTakes: 1},
		{name: "a lost race looks again and adopts the winner", finds: []*Machine{nil, &pending}, makes: []error{ErrLostRace}, wantID: "7", adopted: true, wantMakes: 1, wantTakes: 1},
		{name: "lost races end at Attempts", finds: []*Machine{nil, nil}, makes: []error{ErrLostRace, ErrLostRace}, wantCode: Transient, wantMakes: 2},
		{name: "a failed create finds its machine again", finds: []*Machine{nil, &own}, makes: []error{Errorf(Transient, "boom")}, wantID: "7", wantMakes: 1, wantTakes: 1},
		{name: "an unanswered create that made nothing may be sent again", finds: []*Machine{nil, nil}, makes: []error{noAnswer}, wantCode: Transient, wantMakes: 1},
		{name: "a failed create refused on look-again writes nothing more", finds: []*Machine{nil, &confirmed}, makes: []error{Errorf(Transient, "boom")}, wantCode: Conflict, wantMakes: 1},
		{name: "the backend's look-again verdict is returned", finds: []*Machine{nil}, makes: []error{Errorf(Transient, "boom")},
			again: func(error) (Machine, bool, error) { return Machine{}, false, Errorf(Conflict, "the name is taken") }, wantCode: Conflict, wantMakes: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var finds, makes, takes int
			c := call
			c.KeyAbsent = tc.keyAbsent
			f := CreateFlow{What: "create web", Call: c, Fingerprint: "fp", Clock: fixedClock{now}, Attempts: 2,
				Find: func(context.Context) (Machine, bool, error) {
					if finds >= len(tc.finds) {
						t.Fatalf("Find called %d times, scripted %d", finds+1, len(tc.finds))
					}
					m := tc.finds[finds]
					finds++
					if m == nil {
						return Machine{}, false, nil
					}
					return *m, true, nil
				},
				Make: func(context.Context) (Machine, error) {
					err := tc.makes[makes]
					makes++
					if err != nil {
						return Machine{}, err
					}
					return Machine{ID: "new", Claim: call.Claim}, nil
				},
				Take: func(_ context.Context, found Machine, _ bool) (Machine, error) {
					takes++
					found.Claim = call.Claim
					return found, nil
				},
			}
			if tc.again != nil {
				f.Again = func(_ context.Context, err error) (Machine, bool, error) { return tc.again(err) }
			}
			m, err := f.Run(context.Background())
			switch {
			case tc.wantCode != "" && CodeOf(err) != tc.wantCode:
				t.Fatalf("got %v, want code %s", err, tc.wantCode)
			case tc.wantCode == "" && err != nil:
				t.Fatalf("got %v, want machine %s", err, tc.wantID)
			case tc.wantCode == "" && (m.ID != tc.wantID || m.Adopted != tc.adopted):
				t.Errorf("got machine %s adopted %t, want %s adopted %t", m.ID, m.Adopted, tc.wantID, tc.adopted)
			case tc.adopted && m.PriorClaim != earlier:
				t.Errorf("prior claim %q, want %q", m.PriorClaim, earlier)
			case errors.Is(err, ErrNoAnswer):
				t.Errorf("the error still carries ErrNoAnswer, which stops the caller's retry: %v", err)
			}
			if makes != tc.wantMakes || takes != tc.wantTakes {
				t.Errorf("%d makes and %d takes, want %d and %d", makes, takes, tc.wantMakes, tc.wantTakes)
			}
		})
	}
}

// A call without a key, or whose claim is no claim, is refused before any
// callback runs.
func TestRunChecksTheCallFirst(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []Call{{Claim: NewClaimAt(now)}, {IdempotencyKey: "k"}, {IdempotencyKey: "k", Claim: "no claim"}} {
		called := false
		step := func(context.Context) (Machine, bool, error) { called = true; return Machine{}, false, nil }
		mk := func(context.Context) (Machine, error) { called = true; return Machine{ID: "1"}, nil }
		_, err := CreateFlow{What: "create web", Call: c, Clock: fixedClock{now}, Find: step, Make: mk}.Run(context.Background())
		if CodeOf(err) != InvalidInput || called {
			t.Errorf("call %+v: %v, a step called %t; want InvalidInput before any step", c, err, called)
		}
	}
}
