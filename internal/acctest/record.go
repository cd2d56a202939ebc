package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Written keeps every diagnostic a provider served through Record sent to
// the CLI, in order. A secret search belongs here rather than in the CLI's
// output: Terraform 1.15 prints the configuration line a refused value came
// from, so the user's own file shows up in the output whatever the provider
// wrote.
//
// The provider a CLI's terraform starts is another process: there Written
// also appends each diagnostic to a file the CLI names (recordEnv), and
// CLI.Written reads them back, without their attribute paths.
type Written struct {
	mu    sync.Mutex
	diags []*tfprotov6.Diagnostic
	file  string
}

// Diagnostics returns what the provider sent so far.
func (w *Written) Diagnostics() []*tfprotov6.Diagnostic {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]*tfprotov6.Diagnostic(nil), w.diags...)
}

func (w *Written) add(diags []*tfprotov6.Diagnostic) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.diags = append(w.diags, diags...)
	if w.file != "" && len(diags) > 0 {
		if err := appendWritten(w.file, diags); err != nil {
			// The plugin's stderr is terraform's log; the test that reads
			// the file finds the diagnostics missing and fails.
			fmt.Fprintln(os.Stderr, "acctest: record diagnostics:", err)
		}
	}
}

// recordEnv, set in a terraform process's environment, names the file the
// provider it starts appends its diagnostics to (see CLI.Written).
const recordEnv = "COMPUTE_ACCTEST_RECORD_DIAGNOSTICS"

// writtenLine is one diagnostic in a record file.
type writtenLine struct {
	Severity tfprotov6.DiagnosticSeverity `json:"severity"`
	Summary  string                       `json:"summary"`
	Detail   string                       `json:"detail"`
}

// appendWritten appends diags to file in one write, so that the provider
// processes one command starts one after another (or at once) never
// interleave their lines.
func appendWritten(file string, diags []*tfprotov6.Diagnostic) error {
	var buf []byte
	for _, d := range diags {
		line, err := json.Marshal(writtenLine{Severity: d.Severity, Summary: d.Summary, Detail: d.Detail})
		if err != nil {
			return err
		}
		buf = append(append(buf, line...), '\n')
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(buf); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readWritten reads a record file back; a missing file is no diagnostics.
func readWritten(file string) (*Written, error) {
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return &Written{}, nil
	}
	if err != nil {
		return nil, err
	}
	w := &Written{}
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var l writtenLine
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		w.diags = append(w.diags, &tfprotov6.Diagnostic{Severity: l.Severity, Summary: l.Summary, Detail: l.Detail})
	}
	return w, nil
}

// recordServer wraps a provider server so that it keeps its diagnostics in
// a Written that also appends them to file.
func recordServer(file string, f func() tfprotov6.ProviderServer) func() tfprotov6.ProviderServer {
	w := &Written{file: file}
	return func() tfprotov6.ProviderServer { return recorder{ProviderServer: f(), w: w} }
}

// Record wraps factories so that every provider they make keeps its
// diagnostics in the returned Written, from the calls that validate,
// configure, plan, apply, read and import.
func Record(factories map[string]func() (tfprotov6.ProviderServer, error)) (map[string]func() (tfprotov6.ProviderServer, error), *Written) {
	w := &Written{}
	out := map[string]func() (tfprotov6.ProviderServer, error){}
	for name, f := range factories {
		out[name] = func() (tfprotov6.ProviderServer, error) {
			srv, err := f()
			if err != nil {
				return nil, err
			}
			return recorder{ProviderServer: srv, w: w}, nil
		}
	}
	return out, w
}

// recorder passes every call on, keeping the diagnostics of those that
// carry the user's values.
type recorder struct {
	tfprotov6.ProviderServer
	w *Written
}

func (r recorder) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	resp, err := r.ProviderServer.ValidateProviderConfig(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	resp, err := r.ProviderServer.ConfigureProvider(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	resp, err := r.ProviderServer.ValidateResourceConfig(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := r.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := r.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := r.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	resp, err := r.ProviderServer.ImportResourceState(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	resp, err := r.ProviderServer.ValidateDataResourceConfig(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	resp, err := r.ProviderServer.ReadDataSource(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}
