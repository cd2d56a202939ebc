package faults

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestConformanceRule(t *testing.T) {
	routes := map[string]Target{"get": {"GET", "/things/{id}"}}
	own := func(r *Rule) error { r.Status = 500; return nil }
	r, err := ConformanceRule("test", routes, "get", "hang", 2, own)
	if err != nil || r.Method != "GET" || r.Path != "/things/{id}" || r.Count != 2 || r.DelayIfConnected != Duration(24*time.Hour) || r.Status != 0 {
		t.Errorf("hang: %+v %v", r, err)
	}
	if r, err := ConformanceRule("test", routes, "get", "drop_after_commit", -1, own); err != nil || !r.Drop || r.Count != 0 || r.Status != 0 {
		t.Errorf("drop: %+v %v", r, err)
	}
	if r, err := ConformanceRule("test", routes, "get", "server_error", 1, own); err != nil || r.Status != 500 || r.Count != 1 {
		t.Errorf("own class: %+v %v", r, err)
	}
	if _, err := ConformanceRule("test", routes, "put", "hang", 1, own); err == nil || !strings.Contains(err.Error(), `no conformance op "put"`) {
		t.Errorf("unknown op: %v", err)
	}
	refuse := func(*Rule) error { return errors.ErrUnsupported }
	if _, err := ConformanceRule("test", routes, "get", "locked", 1, refuse); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("an answer's refusal is lost: %v", err)
	}
}
