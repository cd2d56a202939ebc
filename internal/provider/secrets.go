package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// resolver resolves secret references with the provider block's secrets
// map. Terraform configures the provider during plan even when the map (or
// some of its values) is not known yet; references to those values answer
// tfdiag.ErrUnknownUntilApply, so plan-time checks can step aside instead of
// failing the plan.
type resolver struct {
	inner      adapter.SecretResolver
	allUnknown bool
	unknown    map[string]bool
}

func newResolver(secrets types.Map) resolver {
	r := resolver{inner: adapter.SecretResolver{Provider: map[string]string{}}, unknown: map[string]bool{}}
	if secrets.IsUnknown() {
		r.allUnknown = true
		return r
	}
	for name, v := range secrets.Elements() {
		s, ok := v.(types.String)
		switch {
		case !ok || s.IsUnknown():
			r.unknown[name] = true
		case !s.IsNull():
			r.inner.Provider[name] = s.ValueString()
		}
	}
	return r
}

func (r resolver) Resolve(ctx context.Context, ref string) (string, error) {
	scheme, name, err := adapter.ParseRef(ref)
	if err != nil {
		return "", err
	}
	if scheme == "provider" && (r.allUnknown || r.unknown[name]) {
		return "", &adapter.Error{Code: adapter.InvalidConfig, Err: tfdiag.ErrUnknownUntilApply,
			Message: "secret reference " + ref + ": the provider block's secrets value is not known until apply"}
	}
	return r.inner.Resolve(ctx, ref)
}
