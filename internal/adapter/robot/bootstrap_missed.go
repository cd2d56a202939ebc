package robot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/robot/install"
)

// A boot that missed rescue. Robot's rescue activation is spent by the boot
// that starts it, so a reset that reaches the machine after that boot began
// (the second of a reset whose answer was lost, sent while the activation
// still read as armed) starts the disk: an empty one, or the old system,
// and the rescue system never answers. The wait for rescue tells such a
// boot by two signs together: nothing has answered with the pinned rescue
// key for rescueGrace, and Robot says the activation is spent. Then it arms
// rescue again (a new activation, with a new host key) and resets once
// more. A boot that was merely slow loses nothing by it but one more boot:
// the reset restarts it into the new activation. The installed system
// answering with its own known key is no rescue either, and waits the same
// way; any other key still stops the wait before a credential is sent.

// rescueGrace is how long a wait for the rescue system lets pass before it
// asks whether the boot missed rescue. A real Robot rescue boot takes one
// to three minutes (the firmware's POST, the network boot, the rescue
// image), longer on servers with much memory to train; four minutes is
// beyond that, and leaves a boot armed again time to answer within the
// phase's default ten. The emulated machines boot in milliseconds.
const rescueGrace = 4 * time.Minute

// maxRearms bounds how often one rescue phase arms rescue again: a machine
// whose boots keep missing it has something else wrong.
const maxRearms = 2

// errMissedRescue ends a wait whose boot missed rescue.
var errMissedRescue = errors.New("the boot missed the rescue system")

// awaitRescue waits, within the phase, for the pinned rescue key to answer
// and the host to name itself "rescue". With mayRearm, a boot that missed
// rescue ends it with errMissedRescue (see missWatch).
func (b *run) awaitRescue(ctx context.Context, mayRearm bool) error {
	pin := rescuePin(b.p.RescueHostKey)
	miss := &missWatch{b: b, may: mayRearm, start: b.a.clock.Now(), waited0: b.waited, next: rescueGrace}
	return b.wait(ctx, "the rescue system of "+describe(b.s)+" to answer on SSH", b.phaseEnd, func(ctx context.Context) (bool, string, error) {
		ok, offered, err := b.probe(ctx, pin)
		switch {
		case err != nil:
			return miss.check(ctx, "no SSH yet", err)
		case !ok && b.p.HostKey != "" && offered.AuthorizedKey == strings.TrimSpace(b.p.HostKey):
			return miss.check(ctx, "the installed system still answers", nil)
		case !ok:
			// Dial refuses with the message that names both keys.
			_, err := b.ssh.Dial(ctx, b.target(pin), b.a.auth)
			return false, "another host key", err
		}
		miss.may = false
		if b.pinOnly {
			return true, "rescue answers", nil
		}
		res, err := b.inRescue(ctx, "hostname", install.HostnameLine, nil)
		if err != nil {
			return false, "rescue answers", err
		}
		return res.Exit == 0 && strings.TrimSpace(string(res.Stdout)) == "rescue", "rescue answers", nil
	})
}

// missWatch tells, in one wait for the rescue system, a boot that missed
// it. Once the grace passed with nothing answering as rescue, and again
// each further grace, it reads the activation: one that still stands is a
// reset not yet done or a boot not yet begun (wait on); one that is spent
// is a boot that went elsewhere. The grace counts on the account's clock:
// what its Now says has passed or what its waits have waited, whichever is
// more (the same on the wall clock; a clock that shortens its waits
// shortens the grace with them).
type missWatch struct {
	b *run
	// may is false when the phase may arm no more, and once the rescue
	// key answered: that boot reached rescue.
	may     bool
	start   time.Time
	waited0 time.Duration
	next    time.Duration // when to look next, since start
}

// check is the wait's answer while the rescue key has not answered (seen,
// err), or errMissedRescue.
func (w *missWatch) check(ctx context.Context, seen string, err error) (bool, string, error) {
	b := w.b
	if !w.may || (err != nil && adapter.CodeOf(err) != adapter.Transient) {
		return false, seen, err
	}
	elapsed := max(b.a.clock.Now().Sub(w.start), b.waited-w.waited0)
	if elapsed < w.next {
		return false, seen, err
	}
	w.next = elapsed + rescueGrace
	cur, rerr := b.a.rescueState(ctx, b.s.Number)
	if rerr != nil {
		return false, seen, fail("read the rescue system of "+describe(b.s), rerr)
	}
	if cur.Active {
		return false, seen + "; the rescue activation still stands", err
	}
	return false, seen, &adapter.Error{Code: adapter.InvalidState, Err: errMissedRescue,
		Message: fmt.Sprintf("%s missed the rescue system: Robot spent the activation, and nothing answered as rescue within %s", describe(b.s), rescueGrace)}
}

// rearmsDidNotHelp says in the message of a wait that ran out after rescue
// was armed again that it was, and that it did not help.
func rearmsDidNotHelp(err error, rearms int) error {
	var e *adapter.Error
	if rearms == 0 || !errors.As(err, &e) || e.Code != adapter.Transient || !strings.HasSuffix(e.Message, waitWayOn) {
		return err
	}
	c := *e
	c.Message = fmt.Sprintf("%s; the boots before had missed the rescue system, so it was armed again and the server reset %d time(s), which did not help: the server may not boot from the network, check it in Robot%s",
		strings.TrimSuffix(e.Message, waitWayOn), rearms, waitWayOn)
	return &c
}
