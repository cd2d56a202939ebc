package robot_test

// The structs below mirror the schemas of
// testdata/hetzner-robot-openapi.yaml (components.schemas), field
// for field, so a strict decode fails on a field the spec does not have.
// Where the spec leaves a schema open (rescue, products, market products)
// they mirror what the real webservice answers.

type errorEnvelope struct {
	Error apiError `json:"error"`
}

type apiError struct {
	Status  int      `json:"status"`
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Missing []string `json:"missing"`
	Invalid []string `json:"invalid"`
	// Robot adds the budget to RATE_LIMIT_EXCEEDED.
	MaxRequest *int `json:"max_request"`
	Interval   *int `json:"interval"`
}

type subnet struct {
	IP   string `json:"ip"`
	Mask string `json:"mask"`
}

// specServer is Server (GET /server).
type specServer struct {
	ServerIP      string   `json:"server_ip"`
	ServerIPv6Net string   `json:"server_ipv6_net"`
	ServerNumber  int      `json:"server_number"`
	ServerName    string   `json:"server_name"`
	Product       string   `json:"product"`
	DC            string   `json:"dc"`
	Traffic       string   `json:"traffic"`
	Status        string   `json:"status"`
	Cancelled     bool     `json:"cancelled"`
	PaidUntil     string   `json:"paid_until"`
	IP            []string `json:"ip"`
	Subnet        []subnet `json:"subnet"`
}

// specServer3 is Server3 (POST /server/{n}).
type specServer3 struct {
	specServer
	Reset   bool `json:"reset"`
	Rescue  bool `json:"rescue"`
	VNC     bool `json:"vnc"`
	Windows bool `json:"windows"`
	Plesk   bool `json:"plesk"`
	CPanel  bool `json:"cpanel"`
	WOL     bool `json:"wol"`
	HotSwap bool `json:"hot_swap"`
}

// specServer2 is Server2 (GET /server/{n}).
type specServer2 struct {
	specServer3
	LinkedStoragebox *int `json:"linked_storagebox"`
}

type serverList []struct {
	Server specServer `json:"server"`
}

type serverEnvelope struct {
	Server specServer2 `json:"server"`
}

type renamedEnvelope struct {
	Server specServer3 `json:"server"`
}

// specCancellation is Cancellation and Cancellation2.
type specCancellation struct {
	ServerIP                 string `json:"server_ip"`
	ServerIPv6Net            string `json:"server_ipv6_net"`
	ServerNumber             int    `json:"server_number"`
	ServerName               string `json:"server_name"`
	EarliestCancellationDate string `json:"earliest_cancellation_date"`
	Cancelled                bool   `json:"cancelled"`
	ReservationPossible      bool   `json:"reservation_possible"`
	Reserved                 bool   `json:"reserved"`
	CancellationDate         any    `json:"cancellation_date"`
	CancellationReason       any    `json:"cancellation_reason"`
}

type cancellationEnvelope struct {
	Cancellation specCancellation `json:"cancellation"`
}

// specReset is Reset (GET /reset/{n}); Reset2 (GET /reset) lacks
// operating_status.
type specReset struct {
	ServerIP        string   `json:"server_ip"`
	ServerIPv6Net   string   `json:"server_ipv6_net"`
	ServerNumber    int      `json:"server_number"`
	Type            []string `json:"type"`
	OperatingStatus string   `json:"operating_status"`
}

type specReset2 struct {
	ServerIP      string   `json:"server_ip"`
	ServerIPv6Net string   `json:"server_ipv6_net"`
	ServerNumber  int      `json:"server_number"`
	Type          []string `json:"type"`
}

// specReset3 is Reset3 (POST /reset/{n}), with the server_number the
// webservice answers beyond it.
type specReset3 struct {
	ServerIP      string `json:"server_ip"`
	ServerIPv6Net string `json:"server_ipv6_net"`
	ServerNumber  int    `json:"server_number"`
	Type          string `json:"type"`
}

type specWol struct {
	ServerIP      string `json:"server_ip"`
	ServerIPv6Net string `json:"server_ipv6_net"`
	ServerNumber  int    `json:"server_number"`
}

type keyRef struct {
	Key struct {
		Name        string `json:"name"`
		Fingerprint string `json:"fingerprint"`
		Type        string `json:"type"`
		Size        int    `json:"size"`
	} `json:"key"`
}

type hostKey struct {
	Key struct {
		Fingerprint string `json:"fingerprint"`
		Type        string `json:"type"`
		Size        int    `json:"size"`
	} `json:"key"`
}

type specRescue struct {
	ServerIP      string    `json:"server_ip"`
	ServerIPv6Net string    `json:"server_ipv6_net"`
	ServerNumber  int       `json:"server_number"`
	OS            any       `json:"os"`
	Arch          any       `json:"arch"`
	Active        bool      `json:"active"`
	Password      *string   `json:"password"`
	AuthorizedKey []keyRef  `json:"authorized_key"`
	HostKey       []hostKey `json:"host_key"`
	BootTime      any       `json:"boot_time"`
}

type rescueEnvelope struct {
	Rescue specRescue `json:"rescue"`
}

type bootEnvelope struct {
	Boot struct {
		Rescue  specRescue     `json:"rescue"`
		Linux   map[string]any `json:"linux"`
		VNC     map[string]any `json:"vnc"`
		Windows specWindows    `json:"windows"`
	} `json:"boot"`
}

// specWindows is Windows, the boot overview's windows.
type specWindows struct {
	ServerIP      string   `json:"server_ip"`
	ServerIPv6Net string   `json:"server_ipv6_net"`
	ServerNumber  int      `json:"server_number"`
	OS            []string `json:"os"`
	Dist          any      `json:"dist"`
	Lang          any      `json:"lang"`
	Active        bool     `json:"active"`
	Password      *string  `json:"password"`
}

type specKey struct {
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
	Type        string `json:"type"`
	Size        int    `json:"size"`
	Data        string `json:"data"`
	CreatedAt   string `json:"created_at"`
}

type keyEnvelope struct {
	Key specKey `json:"key"`
}

type price struct {
	Net         string `json:"net"`
	Gross       string `json:"gross"`
	HourlyNet   string `json:"hourly_net"`
	HourlyGross string `json:"hourly_gross"`
}

// specProductBase is what Product and MarketProduct describe alike.
type specProductBase struct {
	Name        string   `json:"name"`
	Description []string `json:"description"`
	Traffic     string   `json:"traffic"`
	Dist        []string `json:"dist"`
	Arch        []int    `json:"arch"`
	Lang        []string `json:"lang"`
}

type specProduct struct {
	specProductBase
	ID       string   `json:"id"`
	Location []string `json:"location"`
	Prices   []struct {
		Location   string `json:"location"`
		Price      price  `json:"price"`
		PriceSetup struct {
			Net   string `json:"net"`
			Gross string `json:"gross"`
		} `json:"price_setup"`
	} `json:"prices"`
	OrderableAddons []any `json:"orderable_addons"`
}

type specMarketProduct struct {
	specProductBase
	ID              int    `json:"id"`
	CPU             string `json:"cpu"`
	CPUBenchmark    int    `json:"cpu_benchmark"`
	MemorySize      int    `json:"memory_size"`
	HDDSize         int    `json:"hdd_size"`
	HDDText         string `json:"hdd_text"`
	HDDCount        int    `json:"hdd_count"`
	Datacenter      string `json:"datacenter"`
	NetworkSpeed    string `json:"network_speed"`
	Price           string `json:"price"`
	PriceVAT        string `json:"price_vat"`
	PriceHourly     string `json:"price_hourly"`
	PriceHourlyVAT  string `json:"price_hourly_vat"`
	PriceSetup      string `json:"price_setup"`
	PriceSetupVAT   string `json:"price_setup_vat"`
	FixedPrice      bool   `json:"fixed_price"`
	NextReduce      int    `json:"next_reduce"`
	NextReduceDate  string `json:"next_reduce_date"`
	OrderableAddons []any  `json:"orderable_addons"`
}

// specTransaction is Transaction (and Transaction2…5, which differ only in
// what they leave untyped).
type specTransaction struct {
	ID            string         `json:"id"`
	Date          string         `json:"date"`
	Status        string         `json:"status"`
	ServerNumber  *int           `json:"server_number"`
	ServerIP      *string        `json:"server_ip"`
	AuthorizedKey []keyRef       `json:"authorized_key"`
	HostKey       []hostKey      `json:"host_key"`
	Comment       *string        `json:"comment"`
	Product       map[string]any `json:"product"`
	Addons        []string       `json:"addons"`
}

type transactionEnvelope struct {
	Transaction specTransaction `json:"transaction"`
}
