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
