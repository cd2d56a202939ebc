package adapter

import "context"

// CheckWrite forwards to the adapter's WriteChecker; without one, there is
// nothing more to prove than Check did.
func (c *Cached) CheckWrite(ctx context.Context) error {
	if w, ok := c.Adapter.(WriteChecker); ok {
		return w.CheckWrite(ctx)
	}
	return nil
}
