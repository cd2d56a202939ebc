package fleet

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"
)

// Stage is hooks.Table.Stage for an API that shows each situation by the
// status word statuses gives it: the server takes the word and keeps it
// on later reads (nothing settles it), and an unaddressed one loses its
// address. A situation statuses leaves out is one the API cannot show.
func (f *Fleet[S, P]) Stage(statuses map[string]string) func(id, situation string) (string, error) {
	return func(id, situation string) (string, error) {
		status, ok := statuses[situation]
		if !ok {
			return "", fmt.Errorf("the API shows no %s %s: %w", situation, f.cfg.Noun, errors.ErrUnsupported)
		}
		n, err := strconv.Atoi(id)
		if err != nil {
			return "", fmt.Errorf("%q is not a %s id", id, f.cfg.Noun)
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		s := f.byID[n]
		if s == nil {
			return "", fmt.Errorf("no %s %d to stage", f.cfg.Noun, n)
		}
		m := s.machine()
		m.Status, m.settle = status, ""
		if situation == hooks.SituationUnaddressed {
			m.IPv4 = ""
		}
		return status, nil
	}
}
