// Package marks writes the contract's adapter.Mark onto what a backend
// keeps beside a machine (key/value labels, tags, a free-text description)
// and reads it back, and refuses a machine without the managed label
// (Labels.Refuse, which is the contract's adapter.Unmarked; rule 8, only
// marked machines are changed, of internal/adapter's package
// documentation). It holds spellings only: the claim's shape
// (adapter.IsClaim), the mark an Update writes (adapter.Mark.Over) and a
// Machine's mark (Machine.Mark, Machine.SetMark) are the contract's. An
// adapter with labels needs a few lines:
//
//	labels := marks.Default().Put(req.Labels, mark)            // the create call's labels
//	managed, mark, user := marks.Default().Read(server.Labels) // a read
//	machine.SetMark(managed, mark)
//	if !managed {
//		return marks.Default().Refuse("delete", `server 5 ("web")`, "5")
//	}
//	err := marks.Default().CheckUser(req.Labels) // no user label forges the mark
//
// A backend of servers with labels over an API (Toy Cloud, and
// DigitalOcean, Vultr, Linode or Scaleway would be alike) takes the kit
// instead, around its own calls: Labels.Create is the contract's create
// over a listing by label selector, a create call and a relabel;
// Labels.Managed reads a machine before Delete or Power and refuses it
// unmarked; Labels.Update is what an Update writes as labels, the guard
// included.
//
// It imports only the standard library and internal/adapter, never a
// backend's package, so every adapter can use it (a depguard rule of
// .golangci.yml enforces this).
//
// # One scheme, and the spellings already released
//
// The mark has five fields, named the same everywhere: managed, key,
// fingerprint, claim and unconfirmed (see adapter.Mark). A backend that
// stores it as names and values writes each as <prefix><field>, the claim
// only when there is one and unconfirmed ("true") only until the claim is
// confirmed, so that a mark written before either existed reads as a
// machine without a claim and confirmed. Backends with key/value labels
// use Default, the prefix compute.seedcompute.io/ (a DNS name the project
// holds, as Kubernetes-style label keys want, so no other tool's label
// collides with it) and managed=true; the prefix is reserved, and a
// user's label under it is refused (CheckUser).
//
// Machines made by released versions carry the spellings below, and a
// managed machine that read as unmarked would be refused by the state
// that holds it, or worse, adopted by a second state. So the spellings
// stay as released, and only the code is shared:
//
//   - Hetzner Cloud: server labels, Default (compute.seedcompute.io/key,
//     …). It was the first, and is the scheme.
//   - Proxmox VE: the description, as Text lines "compute-managed: v1",
//     "compute-key: …": the same field names under the prefix compute-,
//     since a description is text a person reads in the PVE GUI beside
//     their own, and "v1" as released. PVE lists no description in
//     /cluster/resources, so Tags mirror what a listing needs: the tag
//     "compute", the claim as cm-c-<claim>, cm-unconfirmed, and cm-new on
//     a VM not yet started (one of the adapter's own tags, Tags.Own). PVE's tags
//     are a restricted charset (letters, digits, '_', '-', '+' and '.', no
//     '/' and no ':', ValidTag): no label name of Default fits in one.
//   - Hetzner Robot: no labels at all; the mark lives in the server's name
//     (internal/adapter/robot's claimname.go), and Robot shares the
//     refusal (adapter.Unmarked), and takes the update's mark
//     (adapter.Mark.Over) and the claim's shape (adapter.IsClaim) from the
//     contract, as every backend does.
//
// Reading both an old and a new spelling was the other way, and was not
// taken: on Hetzner Cloud a label selector cannot ask for either of two
// keys, so every listing of managed machines would cost two requests,
// and a machine written in a new spelling would read as unmarked to the
// released versions a user may still run against the same project.
//
// A new backend with key/value labels uses Default. One without labels
// writes Text with Default's prefix into a free-text field, and mirrors the
// claim in Tags if its listings carry only tags.
package marks
