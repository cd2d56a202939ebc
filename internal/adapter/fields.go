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
	// FieldPricePerHour is Offer.PricePerHour; a key of Definition.Notes.
	FieldPricePerHour = "price_per_hour"
)

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
