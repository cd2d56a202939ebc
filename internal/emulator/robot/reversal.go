package robot

import (
	"net/http"
	"time"
)

// ReversalPeriod is how long after its order a server's order can be
// revoked (POST /server/{n}/reversal): the fourteen days of the withdrawal
// right for a contract concluded at a distance. Robot does not publish its
// own figure; what the emulator must show is that the window closes.
const ReversalPeriod = 14 * 24 * time.Hour

const codeServerReversalNotPossible = "SERVER_REVERSAL_NOT_POSSIBLE" // 409

// reverseOrder revokes the order of a server: one ordered through the
// webservice, within ReversalPeriod of its order and not cancelled, is
// withdrawn and leaves the account as a server cancelled "now" does; any
// other is 409 SERVER_REVERSAL_NOT_POSSIBLE. The optional reversal_reason
// is answered as the cancellation's reason. The answer is the server's
// cancellation, which is what clients decode it as (hrobot-go's
// ServerReverse reads a cancellation).
func (e *Emulator) reverseOrder(w http.ResponseWriter, r *http.Request, s *server) {
	now := e.now()
	switch {
	case s.orderedAt.IsZero():
		writeError(w, failure(http.StatusConflict, codeServerReversalNotPossible, "server %d was not ordered through the webservice; its order cannot be revoked", s.number))
		return
	case s.cancelled:
		writeError(w, failure(http.StatusConflict, codeServerReversalNotPossible, "server %d is cancelled already (for %s); its order cannot be revoked", s.number, s.cancellationDate))
		return
	case !now.Before(s.orderedAt.Add(ReversalPeriod)):
		writeError(w, failure(http.StatusConflict, codeServerReversalNotPossible, "the order of server %d was placed on %s; it could be revoked until %s",
			s.number, s.orderedAt.UTC().Format(time.DateOnly), s.orderedAt.Add(ReversalPeriod).UTC().Format(time.DateOnly)))
		return
	}
	s.cancelled, s.cancelledNow = true, true
	s.cancellationDate = now.UTC().Format(time.DateOnly)
	s.cancellationReason = r.PostForm.Get("reversal_reason")
	s.goneAt = now.Add(e.opts.CancelDelay)
	writeJSON(w, http.StatusOK, e.cancellationJSON(s))
}
