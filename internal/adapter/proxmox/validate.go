package proxmox

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Validate checks a request against the account before anything is made:
// flavor, template, node and user data, each refusal naming its field.
func (a *account) Validate(ctx context.Context, req adapter.CreateRequest) error {
	_, _, _, release, err := a.plan(ctx, req, false)
	release()
	return err
}

// plan resolves a request: its flavor, template and node. With place, the
// node is the create's: its memory is held for the flavor until release,
// which the caller must call in every case.
func (a *account) plan(ctx context.Context, req adapter.CreateRequest, place bool) (f flavor, tpl resource, n node, release func(), err error) {
	release = func() {}
	f, tpl, err = a.resolve(ctx, req)
	if err != nil {
		return f, tpl, n, release, err
	}
	n, release, err = a.pickNode(ctx, req.Location, f, place)
	return f, tpl, n, release, err
}

// resolve is a request's flavor and template.
func (a *account) resolve(ctx context.Context, req adapter.CreateRequest) (flavor, resource, error) {
	if err := a.checkUserData(req.UserData); err != nil {
		return flavor{}, resource{}, err
	}
	if len(req.Labels) > 0 {
		return flavor{}, resource{}, adapter.Errorf(adapter.InvalidInput, "Proxmox keeps tags, not key/value labels; set labels to {}").WithField(adapter.FieldLabels)
	}
	f, ok := a.flavors[req.OfferID]
	if !ok {
		return flavor{}, resource{}, adapter.Errorf(adapter.InvalidInput, "offer %s is not a flavor of the account; available: %s (the account's flavors setting)",
			adapter.Quoted(adapter.Redacted(req.OfferID)), flavorNames(a.flavors)).WithField(adapter.FieldOfferID)
	}
	list, err := a.vms(ctx)
	if err != nil {
		return flavor{}, resource{}, fail("list the cluster's templates", err)
	}
	var names []string
	var tpl resource
	found := false
	for _, r := range list {
		if r.Template != 1 {
			continue
		}
		names = append(names, r.Name)
		if r.Name == req.Image && (!found || r.VMID < tpl.VMID) {
			tpl, found = r, true
		}
	}
	if !found {
		slices.Sort(names)
		return flavor{}, resource{}, adapter.Errorf(adapter.InvalidInput, "image %s is not a template of the cluster; templates: %s",
			adapter.Quoted(adapter.Redacted(req.Image)), orNone(names)).WithField(adapter.FieldImage)
	}
	if f.Template != "" && f.Template != req.Image {
		return flavor{}, resource{}, adapter.Errorf(adapter.InvalidInput, "flavor %s is for template %s only, not %s; pick another flavor or that template",
			f.Name, f.Template, adapter.Quoted(adapter.Redacted(req.Image))).WithField(adapter.FieldOfferID)
	}
	return f, tpl, nil
}

// pickNode is the node the request names (or the account's), which must
// be online; else the online node with the most free memory that fits the
// flavor, ties broken by name. Free memory is what GET /nodes shows less
// what creates of this process have placed on the node and that it may
// not show yet, so that creates in parallel spread over the nodes instead
// of all taking the one that had the most when they started; with place,
// the choice is held until release.
func (a *account) pickNode(ctx context.Context, want string, f flavor, place bool) (node, func(), error) {
	none := func() {}
	nodes, err := a.nodes(ctx)
	if err != nil {
		return node{}, none, err
	}
	if want == "" {
		want = a.node
	}
	var names []string
	for _, n := range nodes {
		names = append(names, n.Node)
	}
	slices.Sort(names)
	if want != "" {
		i := slices.IndexFunc(nodes, func(n node) bool { return n.Node == want })
		switch {
		case i < 0:
			return node{}, none, adapter.Errorf(adapter.InvalidInput, "location %s is not a node of the cluster; nodes: %s", adapter.Quoted(adapter.Redacted(want)), orNone(names)).WithField(adapter.FieldLocation)
		case !nodes[i].online():
			return node{}, none, adapter.Errorf(adapter.InvalidState, "node %s is %s; pick an online node or wait for it", want, nodes[i].Status).WithField(adapter.FieldLocation)
		}
		return nodes[i], none, nil
	}
	best, release := a.placed.choose(nodes, f, place)
	if best == nil {
		return node{}, none, adapter.Errorf(adapter.QuotaExceeded, "no online node has %d cores and %d MiB of free memory for flavor %s; nodes: %s", f.Cores, f.MemoryMiB, f.Name, orNone(names)).WithField(adapter.FieldOfferID)
	}
	return *best, release, nil
}

// noSnippets is why user data is refused without snippet settings.
const noSnippets = "the PVE API cannot upload snippets; set snippet_storage and the ssh_* settings of the account, or use a template with the config baked in"

// checkUserData refuses user data the account cannot deliver: without
// snippet settings only "" or a bare "#cloud-config" passes. The message
// never repeats the user data.
func (a *account) checkUserData(ud string) error {
	if a.snippets.enabled() || trivialUserData(ud) {
		return nil
	}
	return adapter.Errorf(adapter.InvalidInput, "user_data cannot be delivered (its content is not shown): %s", noSnippets).WithField(adapter.FieldUserData)
}

func trivialUserData(ud string) bool {
	t := strings.TrimSpace(ud)
	return t == "" || t == "#cloud-config"
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

func itoa(n int) string { return strconv.Itoa(n) }
