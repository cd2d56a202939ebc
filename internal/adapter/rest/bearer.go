package rest

import (
	"context"
	"net/http"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Bearer is the Config.Authenticate of an API that takes one token as
// "Authorization: Bearer …": it resolves the secret reference ref for each
// request, so no field keeps the token (rule 6, no secret leaves, of
// internal/adapter's package documentation), and returns the token as the
// value an error answer must not repeat. setting names the reference's
// setting in the error of a reference that does not resolve.
func Bearer(secrets adapter.Secrets, setting, ref string) func(context.Context, *http.Request) ([]string, error) {
	return func(ctx context.Context, req *http.Request) ([]string, error) {
		token, err := adapter.ResolveField(ctx, secrets, setting, ref, "an existing secret")
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		return []string{token}, nil
	}
}
