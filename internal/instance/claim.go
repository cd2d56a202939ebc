package instance

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// The state's claim on its machine (see adapter.NewClaim) is the computed
// attribute claim: Terraform hands the prior state to every read, update and
// delete, a tainted object's delete included, where the private state of a
// replacement's delete is the new object's plan, empty.
//
// The private state keeps one fact: that an import just wrote the object.
// Its first refresh then takes the claim the machine carries. Any other
// object without a claim holds only a machine without one, so a state never
// takes another state's claim by reading it.
const privateImported = "imported"

// privateGetter and privateSetter are what the framework's private state
// offers; its type is internal to the framework.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// markImported notes that an import wrote the object.
func markImported(ctx context.Context, p privateSetter) diag.Diagnostics {
	return p.SetKey(ctx, privateImported, []byte(`true`))
}

// imported reports whether an import wrote the object and no refresh has
// taken the machine's claim since.
func imported(ctx context.Context, p privateGetter) bool {
	if p == nil {
		return false
	}
	raw, _ := p.GetKey(ctx, privateImported)
	return len(raw) > 0
}

// endImport forgets that an import wrote the object.
func endImport(ctx context.Context, p privateSetter) diag.Diagnostics {
	return p.SetKey(ctx, privateImported, nil)
}

// privateLost marks an object whose last refresh found its machine held by
// another state, so its plan can refuse a change Update would refuse.
const privateLost = "lost"

// setLost records whether the last refresh found the machine held elsewhere.
func setLost(ctx context.Context, p privateSetter, lost bool) diag.Diagnostics {
	if !lost {
		return p.SetKey(ctx, privateLost, nil)
	}
	return p.SetKey(ctx, privateLost, []byte(`true`))
}

// lost reports whether the last refresh found the machine held elsewhere.
func lost(ctx context.Context, p privateGetter) bool {
	if p == nil {
		return false
	}
	raw, _ := p.GetKey(ctx, privateLost)
	return len(raw) > 0
}
