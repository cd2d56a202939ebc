package hcloud

// The wire types below follow the Hetzner Cloud OpenAPI description
// (specs/hcloud-cloud-openapi.json) field for field, nulls included. They are
// the emulator's own on purpose: borrowing the client library's schema
// package would hide every place where the client and the real API differ.

type wireLocation struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Country     string  `json:"country"`
	City        string  `json:"city"`
	Latitude    float64 `json:"latitude"`
	Longitude   float64 `json:"longitude"`
	NetworkZone string  `json:"network_zone"`
}

type wireDatacenter struct {
	ID          int64                 `json:"id"`
	Name        string                `json:"name"`
	Description string                `json:"description"`
	Location    wireLocation          `json:"location"`
	ServerTypes wireDatacenterTypeIDs `json:"server_types"`
}

type wireDatacenterTypeIDs struct {
	Supported             []int64 `json:"supported"`
	Available             []int64 `json:"available"`
	AvailableForMigration []int64 `json:"available_for_migration"`
}

type wirePrice struct {
	Net   string `json:"net"`
	Gross string `json:"gross"`
}

type wireServerTypePrice struct {
	Location          string    `json:"location"`
	PriceHourly       wirePrice `json:"price_hourly"`
	PriceMonthly      wirePrice `json:"price_monthly"`
	IncludedTraffic   int64     `json:"included_traffic"`
	PricePerTBTraffic wirePrice `json:"price_per_tb_traffic"`
}

type wireDeprecation struct {
	Announced        string `json:"announced"`
	UnavailableAfter string `json:"unavailable_after"`
}

type wireServerTypeLocation struct {
	ID          int64            `json:"id"`
	Name        string           `json:"name"`
	Deprecation *wireDeprecation `json:"deprecation"`
	Recommended bool             `json:"recommended"`
	Available   bool             `json:"available"`
}

type wireServerType struct {
	ID           int64                 `json:"id"`
	Name         string                `json:"name"`
	Description  string                `json:"description"`
	Category     string                `json:"category"`
	Cores        int                   `json:"cores"`
	Memory       float64               `json:"memory"`
	Disk         int                   `json:"disk"`
	Deprecated   bool                  `json:"deprecated"`
	Deprecation  *wireDeprecation      `json:"deprecation"`
	Prices       []wireServerTypePrice `json:"prices"`
	StorageType  string                `json:"storage_type"`
	CPUType      string                `json:"cpu_type"`
	Architecture string                `json:"architecture"`
	// No included_traffic: the API dropped it (reporting 0 from August
	// 2024); the traffic included is per location, in prices.
	Locations []wireServerTypeLocation `json:"locations"`
}

type wireProtection struct {
	Delete bool `json:"delete"`
}

type wireImage struct {
	ID          int64          `json:"id"`
	Type        string         `json:"type"`
	Status      string         `json:"status"`
	Name        *string        `json:"name"`
	Description string         `json:"description"`
	ImageSize   *float64       `json:"image_size"`
	DiskSize    float64        `json:"disk_size"`
	Created     string         `json:"created"`
	CreatedFrom *struct{}      `json:"created_from"`
	BoundTo     *int64         `json:"bound_to"`
	OSFlavor    string         `json:"os_flavor"`
	OSVersion   *string        `json:"os_version"`
	RapidDeploy bool           `json:"rapid_deploy"`
	Protection  wireProtection `json:"protection"`
	Deprecated  *string        `json:"deprecated"`
	// Deprecation is not in the OpenAPI description of images, but hcloud-go
	// reads an image's deprecation from it alone, ignoring "deprecated".
	Deprecation  *wireDeprecation  `json:"deprecation"`
	Deleted      *string           `json:"deleted"`
	Labels       map[string]string `json:"labels"`
	Architecture string            `json:"architecture"`
}

type wireIPv4 struct {
	ID      int64  `json:"id"`
	IP      string `json:"ip"`
	Blocked bool   `json:"blocked"`
	DNSPtr  string `json:"dns_ptr"`
}

type wireIPv6 struct {
	ID      int64      `json:"id"`
	IP      string     `json:"ip"`
	Blocked bool       `json:"blocked"`
	DNSPtr  []struct{} `json:"dns_ptr"`
}

type wirePublicNet struct {
	IPv4        *wireIPv4  `json:"ipv4"`
	IPv6        *wireIPv6  `json:"ipv6"`
	FloatingIPs []int64    `json:"floating_ips"`
	Firewalls   []struct{} `json:"firewalls"`
}

type wireServerProtection struct {
	Delete  bool `json:"delete"`
	Rebuild bool `json:"rebuild"`
}

type wireServer struct {
	ID              int64                `json:"id"`
	Name            string               `json:"name"`
	Status          string               `json:"status"`
	Created         string               `json:"created"`
	PublicNet       wirePublicNet        `json:"public_net"`
	PrivateNet      []struct{}           `json:"private_net"`
	ServerType      *wireServerType      `json:"server_type"`
	Location        *wireLocation        `json:"location"`
	Datacenter      *wireDatacenter      `json:"datacenter"`
	Image           *wireImage           `json:"image"`
	ISO             *struct{}            `json:"iso"`
	RescueEnabled   bool                 `json:"rescue_enabled"`
	Locked          bool                 `json:"locked"`
	BackupWindow    *string              `json:"backup_window"`
	OutgoingTraffic *int64               `json:"outgoing_traffic"`
	IngoingTraffic  *int64               `json:"ingoing_traffic"`
	IncludedTraffic int64                `json:"included_traffic"`
	Protection      wireServerProtection `json:"protection"`
	Labels          map[string]string    `json:"labels"`
	Volumes         []int64              `json:"volumes"`
	LoadBalancers   []int64              `json:"load_balancers"`
	PrimaryDiskSize int                  `json:"primary_disk_size"`
	PlacementGroup  *struct{}            `json:"placement_group"`
}

type wireActionResource struct {
	ID   int64  `json:"id"`
	Type string `json:"type"`
}

type wireActionError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type wireAction struct {
	ID        int64                `json:"id"`
	Command   string               `json:"command"`
	Status    string               `json:"status"`
	Progress  int                  `json:"progress"`
	Started   string               `json:"started"`
	Finished  *string              `json:"finished"`
	Resources []wireActionResource `json:"resources"`
	Error     *wireActionError     `json:"error"`
}

type wireSSHKey struct {
	ID          int64             `json:"id"`
	Name        string            `json:"name"`
	Fingerprint string            `json:"fingerprint"`
	PublicKey   string            `json:"public_key"`
	Labels      map[string]string `json:"labels"`
	Created     string            `json:"created"`
}

type wirePagination struct {
	Page         int  `json:"page"`
	PerPage      int  `json:"per_page"`
	PreviousPage *int `json:"previous_page"`
	NextPage     *int `json:"next_page"`
	LastPage     *int `json:"last_page"`
	TotalEntries *int `json:"total_entries"`
}

type wireMeta struct {
	Pagination wirePagination `json:"pagination"`
}
