package adapter

import "sync"

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
	key := l.String()
	if c, ok := a.open[key]; ok {
		return c, l, nil
	}
	ad, err := a.Registry.Open(l, a.Env)
	if err != nil {
		return nil, Locator{}, err
	}
	c := NewCached(ad, a.Env.Clock, 0)
	a.open[key] = c
	return c, l, nil
}
