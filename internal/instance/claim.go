package instance

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// The state's claim on its machine (see adapter.NewClaim) lives in the
// resource's private state: Terraform keeps it with the state and hands it
// back to every read, update and delete, and it shows in no plan or output.
const privateClaim = "claim"

type claimData struct {
	Claim string `json:"claim"`
}

// privateGetter and privateSetter are what the framework's private state
// offers; its type is internal to the framework.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// claimOf returns the claim a state keeps, "" for none (an import not yet
// applied, or a state written before claims existed).
func claimOf(ctx context.Context, p privateGetter) string {
	if p == nil {
		return ""
	}
	raw, _ := p.GetKey(ctx, privateClaim)
	return decodeClaim(raw)
}

func decodeClaim(raw []byte) string {
	var c claimData
	if len(raw) == 0 || json.Unmarshal(raw, &c) != nil {
		return ""
	}
	return c.Claim
}

// setClaim records claim in the private state.
func setClaim(ctx context.Context, p privateSetter, claim string) diag.Diagnostics {
	raw, err := json.Marshal(claimData{Claim: claim})
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Unable to record the claim", "Encoding the claim failed: "+err.Error()+"; this is a bug in the provider.")
		return diags
	}
	return p.SetKey(ctx, privateClaim, raw)
}
