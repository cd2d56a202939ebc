package robot

import (
	"net/http"
	"time"
)

// cancellationReasons are the reasons Robot offers a server's cancellation.
var cancellationReasons = []string{
	"Upgrade to a new server", "Dissatisfied with the hardware", "Dissatisfied with the support",
	"Dissatisfied with the network", "Project ended", "Other",
}

func (e *Emulator) cancellationJSON(s *server) map[string]any {
	c := map[string]any{
		"server_ip": s.ip(), "server_ipv6_net": s.ipv6Net, "server_number": s.number, "server_name": s.name,
		"earliest_cancellation_date": e.now().Format(time.DateOnly), "cancelled": s.cancelled,
		"reservation_possible": false, "reserved": false,
		"cancellation_date": nil, "cancellation_reason": cancellationReasons,
	}
	if s.cancelled {
		c["cancellation_date"] = s.cancellationDate
		c["cancellation_reason"] = nil
		if s.cancellationReason != "" {
			c["cancellation_reason"] = s.cancellationReason
		}
	}
	return map[string]any{"cancellation": c}
}

func (e *Emulator) getCancellation(w http.ResponseWriter, _ *http.Request, s *server) {
	writeJSON(w, http.StatusOK, e.cancellationJSON(s))
}

// cancelServer takes cancellation_date ("now" or a date from today on)
// and an optional cancellation_reason. A server cancelled "now" leaves
// after Options.CancelDelay; one cancelled for a date leaves at its start.
func (e *Emulator) cancelServer(w http.ResponseWriter, r *http.Request, s *server) {
	date := r.PostForm.Get("cancellation_date")
	if date == "" {
		writeError(w, missingInput("cancellation_date"))
		return
	}
	if s.cancelled {
		writeError(w, failure(http.StatusConflict, codeConflict, "server %d is already cancelled for %s; revoke that first (DELETE /server/%d/cancellation)", s.number, s.cancellationDate, s.number))
		return
	}
	now := e.now()
	today := now.UTC().Truncate(24 * time.Hour)
	var gone time.Time
	if date == "now" {
		gone, date = now.Add(e.opts.CancelDelay), today.Format(time.DateOnly)
		s.cancelledNow = true
	} else {
		d, err := time.Parse(time.DateOnly, date)
		if err != nil || d.Before(today) {
			writeError(w, invalidInput("cancellation_date "+date+" is neither \"now\" nor a date (YYYY-MM-DD) from today on", "cancellation_date"))
			return
		}
		gone = d
	}
	s.cancelled, s.cancellationDate, s.goneAt = true, date, gone
	s.cancellationReason = r.PostForm.Get("cancellation_reason")
	writeJSON(w, http.StatusOK, e.cancellationJSON(s))
}

// revokeCancellation withdraws a cancellation for a date; one for "now"
// is final, as Robot's immediate cancellation is.
func revokeCancellation(w http.ResponseWriter, _ *http.Request, s *server) {
	if !s.cancelled || s.cancelledNow {
		writeError(w, failure(http.StatusConflict, codeConflict, "server %d has no cancellation that can be revoked", s.number))
		return
	}
	s.cancelled, s.cancellationDate, s.cancellationReason, s.goneAt = false, "", "", time.Time{}
	w.WriteHeader(http.StatusNoContent)
}
