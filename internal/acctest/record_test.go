package acctest

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// errorsServer answers every ValidateResourceConfig with one error
// diagnostic naming the call.
type errorsServer struct {
	tfprotov6.ProviderServer
	n int
}

func (s *errorsServer) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	s.n++
	return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: []*tfprotov6.Diagnostic{{
		Severity: tfprotov6.DiagnosticSeverityError, Summary: "Unable to validate thing", Detail: fmt.Sprintf("call %d\nsecond line", s.n),
	}}}, nil
}

// TestRecordFile: what a provider process served with recordServer sends
// comes back from its file whole and in order, from several servers at
// once (terraform starts more than one provider process per command), and
// a missing file reads as nothing sent.
func TestRecordFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "diagnostics.jsonl")
	if w, err := readWritten(file); err != nil || len(w.Diagnostics()) != 0 {
		t.Fatalf("a missing file reads as %v, %v; want nothing", w, err)
	}
	const servers, calls = 4, 25
	var wg sync.WaitGroup
	for range servers {
		srv := recordServer(file, func() tfprotov6.ProviderServer { return &errorsServer{} })()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				if _, err := srv.ValidateResourceConfig(context.Background(), &tfprotov6.ValidateResourceConfigRequest{}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	w, err := readWritten(file)
	if err != nil {
		t.Fatal(err)
	}
	got := w.Diagnostics()
	if len(got) != servers*calls {
		t.Fatalf("read back %d diagnostics, want %d", len(got), servers*calls)
	}
	seen := map[string]int{}
	for _, d := range got {
		if d.Severity != tfprotov6.DiagnosticSeverityError || d.Summary != "Unable to validate thing" {
			t.Errorf("read back %+v", d)
		}
		seen[d.Detail]++
	}
	for i := 1; i <= calls; i++ {
		if n := seen[fmt.Sprintf("call %d\nsecond line", i)]; n != servers {
			t.Errorf("detail of call %d read back %d times, want %d", i, n, servers)
		}
	}
}

// listServer streams one result with a display name and a warning.
type listServer struct{ tfprotov6.ProviderServer }

func (listServer) ValidateListResourceConfig(context.Context, *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return &tfprotov6.ValidateListResourceConfigResponse{}, nil
}

func (listServer) ListResource(context.Context, *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	return &tfprotov6.ListResourceServerStream{Results: func(yield func(tfprotov6.ListResourceResult) bool) {
		yield(tfprotov6.ListResourceResult{DisplayName: "web-1 (42)", Diagnostics: []*tfprotov6.Diagnostic{{
			Severity: tfprotov6.DiagnosticSeverityWarning, Summary: "Machine listed twice", Detail: "web-1",
		}}})
	}}, nil
}

// TestRecordListResults: the recorder keeps what a list result carries,
// its diagnostics and its display name, and passes the result on.
func TestRecordListResults(t *testing.T) {
	w := &Written{}
	stream, err := recorder{ProviderServer: listServer{}, w: w}.ListResource(context.Background(), &tfprotov6.ListResourceRequest{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := range stream.Results {
		n++
		if r.DisplayName != "web-1 (42)" {
			t.Errorf("result passed on as %+v", r)
		}
	}
	got := map[string]string{}
	for _, d := range w.Diagnostics() {
		got[d.Summary] = d.Detail
	}
	if n != 1 || got["Machine listed twice"] != "web-1" || got[displayNameSummary] != "web-1 (42)" {
		t.Errorf("%d results; recorded %v, want the warning and the display name", n, got)
	}
}
