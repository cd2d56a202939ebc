package provider

import (
	"context"
	"regexp"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// tflogLogger is the adapter.Logger the provider hands the contract and the
// adapters: it writes to Terraform's log through tflog, with the context of
// the operation (the one the framework passed into CRUD, which carries
// tflog's logger and the RPC's fields), so TF_LOG and TF_LOG_PROVIDER set
// its level as usual.
//
// The contract's own lines (retries, waits) go to the provider's logger;
// each adapter kind's lines go to a subsystem of their own
// ("provider.terraform-provider-compute.hcloud", @module=compute.hcloud),
// whose level TF_LOG_PROVIDER_COMPUTE_HCLOUD can set apart: lower than the
// provider's, to silence the request lines while the rest logs at DEBUG
// (Terraform itself drops lines below TF_LOG_PROVIDER, so not higher).
//
// The lines' fields never hold a secret by construction (see adapter.Logger);
// masking is defence in depth: every secret value resolved so far, and
// fields whose key names a secret, are printed as "***".
type tflogLogger struct {
	kind    string // "": the provider's own logger
	secrets *secretValues
}

var _ adapter.KindLogger = tflogLogger{}

func (l tflogLogger) ForKind(kind string) adapter.Logger {
	return tflogLogger{kind: kind, secrets: l.secrets}
}

func (l tflogLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	if ctx = l.prepare(ctx); l.kind == "" {
		tflog.Debug(ctx, msg, fields)
	} else {
		tflog.SubsystemDebug(ctx, l.kind, msg, fields)
	}
}

func (l tflogLogger) Info(ctx context.Context, msg string, fields map[string]any) {
	if ctx = l.prepare(ctx); l.kind == "" {
		tflog.Info(ctx, msg, fields)
	} else {
		tflog.SubsystemInfo(ctx, l.kind, msg, fields)
	}
}

func (l tflogLogger) Warn(ctx context.Context, msg string, fields map[string]any) {
	if ctx = l.prepare(ctx); l.kind == "" {
		tflog.Warn(ctx, msg, fields)
	} else {
		tflog.SubsystemWarn(ctx, l.kind, msg, fields)
	}
}

// secretKeys are field keys whose values are masked whatever they hold.
var secretKeys = []string{"authorization", "token", "password", "secret", "user_data", "cookie"}

// bearer masks a credential that made it into a value as an HTTP header.
var bearer = regexp.MustCompile(`(?i)\b(bearer|basic)\s+[^\s"']+`)

// prepare sets up the subsystem (a context from the framework has none of
// ours) and the masks. It runs per line: a line is written once per API
// request or wait decision, and a context cannot be prepared once for all
// the operations a provider runs.
func (l tflogLogger) prepare(ctx context.Context) context.Context {
	values := l.secrets.all()
	if l.kind == "" {
		ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, secretKeys...)
		ctx = tflog.MaskAllFieldValuesRegexes(ctx, bearer)
		ctx = tflog.MaskMessageRegexes(ctx, bearer)
		if len(values) > 0 {
			ctx = tflog.MaskAllFieldValuesStrings(ctx, values...)
			ctx = tflog.MaskMessageStrings(ctx, values...)
		}
		return ctx
	}
	ctx = tflog.NewSubsystem(ctx, l.kind,
		tflog.WithRootFields(),
		// The caller's line, not this file's.
		tflog.WithAdditionalLocationOffset(1),
		tflog.WithLevelFromEnv("TF_LOG_PROVIDER_COMPUTE", l.kind))
	ctx = tflog.SubsystemMaskFieldValuesWithFieldKeys(ctx, l.kind, secretKeys...)
	ctx = tflog.SubsystemMaskAllFieldValuesRegexes(ctx, l.kind, bearer)
	ctx = tflog.SubsystemMaskMessageRegexes(ctx, l.kind, bearer)
	if len(values) > 0 {
		ctx = tflog.SubsystemMaskAllFieldValuesStrings(ctx, l.kind, values...)
		ctx = tflog.SubsystemMaskMessageStrings(ctx, l.kind, values...)
	}
	return ctx
}

// secretValues are the secret values this provider has seen: the provider
// block's secrets and every value a reference resolved to. They are kept
// only to be masked in logs.
type secretValues struct {
	mu     sync.Mutex
	values map[string]bool
}

// minMasked is the shortest value masked: masking a one- or two-letter
// "secret" would star out half of every line and hide what the log is for.
const minMasked = 6

func (s *secretValues) add(v string) {
	v = strings.TrimSpace(v)
	if len(v) < minMasked {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values == nil {
		s.values = map[string]bool{}
	}
	s.values[v] = true
}

func (s *secretValues) all() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.values))
	for v := range s.values {
		out = append(out, v)
	}
	return out
}

// noting resolves through inner and notes every value it returns.
type noting struct {
	inner adapter.Secrets
	seen  *secretValues
}

func (n noting) Resolve(ctx context.Context, ref string) (string, error) {
	v, err := n.inner.Resolve(ctx, ref)
	if err == nil {
		n.seen.add(v)
	}
	return v, err
}
