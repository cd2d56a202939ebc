package adapter

// The contract's field names: how errors name the request field at fault
// (Error.Field, Validator) and how the Terraform layer names the attributes
// that carry them, so that an error's field is the attribute to fix. Settings
// are named by their adapter instead (Setting.Name).
const (
	FieldName     = "name"      // CreateRequest.Name, UpdateRequest.Name
	FieldOfferID  = "offer_id"  // CreateRequest.OfferID, Offer.ID
	FieldImage    = "image"     // CreateRequest.Image
	FieldLocation = "location"  // CreateRequest.Location, Query.Location, Offer.Location
	FieldLabels   = "labels"    // CreateRequest.Labels, UpdateRequest.Labels
	FieldPower    = "power"     // CreateRequest.PowerOn, PowerAction
	FieldUserData = "user_data" // CreateRequest.UserData
	// FieldPricePerHour is Offer.PricePerHour.
	FieldPricePerHour = "price_per_hour"
)

// NoteKeys are the keys of Definition.Notes: every key the Terraform layer
// reads, and the only ones a definition may use (NewRegistry refuses any
// other, a typo nobody would read). Each value is a phrase in markdown about
// this backend, without its name, which the reader puts before it
// ("On `hetzner_cloud` accounts: …"); a key left out says nothing.
//
// The field keys say what the field's value is on this backend, in the
// documentation of the attributes that carry it:
//
//   - FieldName: compute_instance.name (the backend's rule for names).
//   - FieldOfferID: compute_instance.offer_id, the id of a compute_offers
//     offer and compute_machines' offer_id.
//   - FieldImage: compute_instance.image and compute_machines' image; on a
//     backend that declares CapBootstrap, compute_bootstrap_host.image too.
//   - FieldLocation: compute_instance.location, compute_offers' location
//     filter and compute_machines' location.
//   - FieldLabels: compute_instance.labels (the backend's label rules).
//   - FieldUserData: compute_instance.user_data (how the machine gets it).
//   - FieldPricePerHour: a compute_offers offer's price_per_hour (which
//     price the backend quotes).
//
// The other keys name no field; see NoteQuery, NoteRescue, NoteRescueWait,
// NoteRescueLogin and NoteRescueUndo.
var NoteKeys = []string{
	FieldName, FieldOfferID, FieldImage, FieldLocation, FieldLabels, FieldUserData, FieldPricePerHour,
	NoteQuery, NoteRescue, NoteRescueWait, NoteRescueLogin, NoteRescueUndo,
}

// NoteQuery is a key of Definition.Notes that names no field: what the
// compute_instance that `terraform query -generate-config-out` writes for a
// machine of this backend leaves null because the backend does not report
// it, and how to fill it in, in compute_instance's list resource
// documentation.
const NoteQuery = "query"

// NoteRescue is a key of Definition.Notes that names no field: on a backend
// whose adapter does not declare CapRescue, how an operator boots a machine
// into a rescue system by hand, as a sentence ("enable rescue with `hcloud
// server enable-rescue`, then reboot the server"). It is the way out of a
// refused compute_instance_rescue; a generic one stands in when it is empty.
const NoteRescue = "rescue"

// Keys of Definition.Notes that name no field, for an adapter that declares
// CapRescue: what compute_instance_rescue's documentation and progress say
// of this backend, as phrases without the backend's name, which the
// action puts before them ("On `hcloud` accounts it waits until …").
const (
	// NoteRescueWait completes "it waits until": what shows that the
	// machine runs its rescue system, and what the boot does beyond it
	// (a machine found in rescue already, a reset that was refused or
	// whose answer was lost).
	NoteRescueWait = "rescue_wait"
	// NoteRescueLogin completes "log in as root": with which key, and
	// from when.
	NoteRescueLogin = "rescue_login"
	// NoteRescueUndo is the way to withdraw a rescue that an interrupted
	// invocation left armed, by hand: "withdraw it with `hcloud server
	// disable-rescue SERVER`".
	NoteRescueUndo = "rescue_undo"
)
