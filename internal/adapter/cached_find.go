package adapter

import "context"

// Find looks for a managed machine that match accepts, in a listing taken
// after the call began: never one cached from before, since Find serves the
// look-up after a write whose answer was lost (a create cut short), which
// must see what the write left. The listing it takes is the shared one, so
// the reads that follow use it too. Without a Lister it answers Unsupported.
func (c *Cached) Find(ctx context.Context, match func(Machine) bool) (Machine, bool, error) {
	if _, ok := c.Adapter.(Lister); !ok {
		return Machine{}, false, Errorf(Unsupported, "the %s adapter cannot list its machines", c.Kind())
	}
	c.Invalidate()
	l, err := c.current(ctx, 0)
	if err == nil {
		err = l.err
	}
	if err != nil {
		return Machine{}, false, err
	}
	for _, m := range l.machines {
		if match(m) {
			return m, true, nil
		}
	}
	return Machine{}, false, nil
}
