package adapter

import (
	"context"
	"sync"
	"time"
)

// Accounts opens accounts by locator for one provider process and keeps one
// Cached adapter per account, so every resource of a run shares its listing
// and catalog caches. It is what the provider hands its resources.
type Accounts struct {
	Registry *Registry
	Env      Env

	mu   sync.Mutex
	open map[string]*Cached
}

// NewAccounts returns an empty set of open accounts.
func NewAccounts(r *Registry, env Env) *Accounts {
	if env.Clock == nil {
		env.Clock = RealClock{}
	}
	return &Accounts{Registry: r, Env: env, open: map[string]*Cached{}}
}

// Open returns the cached adapter for an account id (a locator's text form).
func (a *Accounts) Open(accountID string) (*Cached, Locator, error) {
	l, err := ParseLocator(accountID)
	if err != nil {
		return nil, Locator{}, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	// By settings alone: renaming an account reaches the same backend, and
	// its machines share one listing.
	key := l.Key()
	if c, ok := a.open[key]; ok {
		return c, l, nil
	}
	env := a.Env
	// Each adapter writes to its kind's own log (the provider's tflog
	// subsystem for it).
	env.Log = LoggerFor(env.Log, l.Kind)
	ad, err := a.Registry.Open(l, env)
	if err != nil {
		return nil, Locator{}, err
	}
	d, _ := a.Registry.Definition(l.Kind) // Open found it
	c := NewCached(ad, a.Env.Clock, 0).Declare(d.Capabilities)
	a.open[key] = c
	return c, l, nil
}

// Logging returns ctx carrying the provider's logger, so the contract's
// retries and waits in the operation ctx belongs to are logged (see
// WithLogger). Resource packages call it where an operation starts. A nil
// Accounts (a provider not configured yet) leaves ctx as it is.
func (a *Accounts) Logging(ctx context.Context) context.Context {
	if a == nil {
		return ctx
	}
	return WithLogger(ctx, a.Env.Log)
}

// ProofBound bounds the one read a plan makes through an account an
// instance or host moves to: a backend that does not answer leaves the
// proof to the apply.
const ProofBound = 30 * time.Second

// Reaches is the proof of an account change at plan: one direct read of
// machineID through the account accountID, bounded by ProofBound, judged
// by ReachedThrough for the state's claim (or, without one, the machine's
// name). nil when the account reaches the machine, a NotReached error when
// the backend proved it does not, any other error when it could not tell
// now.
func (a *Accounts) Reaches(ctx context.Context, accountID, machineID, claim, name string) error {
	acc, _, err := a.Open(accountID)
	var m Machine
	if err == nil {
		ctx, cancel := context.WithTimeout(ctx, ProofBound)
		m, err = acc.Fresh(ctx, machineID)
		cancel()
	}
	return ReachedThrough(m, err, machineID, claim, name)
}
