package proxmox

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/sshexec"
)

// options are the knobs tests turn; Definition uses defaultOptions.
type options struct {
	// task paces the waits for PVE tasks and locks, on the account's Clock.
	task adapter.Backoff
	// taskTimeout bounds one wait for a task when the caller's context
	// has no deadline of its own.
	taskTimeout    time.Duration
	requestTimeout time.Duration
	// agentQuiet is how long an agent that did not answer is not asked
	// again by this process.
	agentQuiet time.Duration
	// ssh dials the nodes for snippets; nil is a sshexec.Client.
	ssh snippetDialer
}

func defaultOptions() options {
	return options{
		// A linked clone takes about a second, a full clone of a large
		// disk minutes: poll every quarter second for the first five,
		// then settle at a few seconds. Clones of one template run one
		// after another (the template's lock), so a clone's end seen late
		// delays every clone queued behind it: doubling from the start saw
		// a 2s clone end only at 3.75s.
		task:           adapter.Backoff{Initial: 250 * time.Millisecond, Max: 5 * time.Second, Steady: 20},
		taskTimeout:    30 * time.Minute,
		requestTimeout: DefaultRequestTimeout,
		agentQuiet:     30 * time.Second,
	}
}

// account is one PVE cluster reached with one token: the adapter the
// registry opens.
type account struct {
	c       *client
	clock   adapter.Clock
	opts    options
	scope   string
	flavors map[string]flavor

	node                   string
	vmidMin, vmidMax       uint64
	storage                string
	fullClone              bool
	ipconfig, ciUser, keys string
	agentTimeout           time.Duration

	snippets snippetConfig

	// queues holds one 1-slot channel per template VMID: a clone holds
	// the slot from its POST until its task ends, so this process never
	// contends for a template's lock (PVE's "can't lock file … got
	// timeout"); a create waiting for the slot still ends with its context.
	queuesMu sync.Mutex
	queues   map[int]chan struct{}

	agents agentMemory
	// addrs keeps what agents said, for listings; see addressMemory.
	addrs addressMemory
	// clones learns how long each template's clones take; see cloneTimes.
	clones cloneTimes
	// placed holds the memory creates in flight have placed on nodes.
	placed placements
}

// snippetConfig is what writing user data needs; storage "" turns it off.
type snippetConfig struct {
	storage, user, keyRef string
	pins                  []sshexec.Pin
	port                  int
	secrets               adapter.Secrets
}

func (s snippetConfig) enabled() bool { return s.storage != "" && s.keyRef != "" && len(s.pins) > 0 }

func newAccount(settings map[string]string, env adapter.Env, opts options) (*account, error) {
	if env.Clock == nil {
		env.Clock = adapter.RealClock{}
	}
	if env.Secrets == nil {
		env.Secrets = adapter.SecretResolver{}
	}
	if env.Log == nil {
		env.Log = adapter.NopLogger{}
	}
	flavors, err := parseFlavors(settings[settingFlavors])
	if err != nil {
		return nil, adapter.WithFieldOf(err, settingFlavors)
	}
	u, _ := url.Parse(settings[settingEndpoint])
	host := ""
	if u != nil {
		host = u.Host
	}
	tr, err := trust{
		pin: normFingerprint(settings[settingTLSFingerprint]), caFile: settings[settingCAFile], insecure: settings[settingInsecure] == "true",
	}.transport(host)
	if err != nil {
		return nil, err
	}
	lo, _ := strconv.ParseUint(settings[settingVMIDMin], 10, 64)
	hi, _ := strconv.ParseUint(settings[settingVMIDMax], 10, 64)
	if lo > hi {
		return nil, adapter.Errorf(adapter.InvalidConfig, "vmid_min %d is above vmid_max %d; swap them", lo, hi).WithField(settingVMIDMin)
	}
	agentTimeout, _ := time.ParseDuration(settings[settingAgentTimeout])
	port, _ := strconv.Atoi(settings[settingSSHPort])
	a := &account{
		c:            newClient(settings[settingEndpoint], env, settings[settingAPIToken], opts.requestTimeout, http.RoundTripper(tr)),
		clock:        env.Clock,
		opts:         opts,
		scope:        definition(opts).Scope(settings),
		flavors:      flavors,
		node:         settings[settingNode],
		vmidMin:      lo,
		vmidMax:      hi,
		storage:      settings[settingStorage],
		fullClone:    settings[settingFullClone] == "true",
		ipconfig:     settings[settingIPConfig],
		ciUser:       settings[settingCIUser],
		keys:         settings[settingSSHPublicKeys],
		agentTimeout: agentTimeout,
		snippets: snippetConfig{
			storage: settings[settingSnippetStorage], user: settings[settingSSHUser], keyRef: settings[settingSSHPrivateKey],
			pins: parsePins(settings[settingSSHHostKeys]), port: port, secrets: env.Secrets,
		},
		queues: map[int]chan struct{}{},
	}
	a.agents.quiet = opts.agentQuiet
	if opts.ssh == nil {
		a.opts.ssh = &sshexec.Client{Clock: env.Clock, Log: env.Log, DialTimeout: 10 * time.Second}
	}
	return a, nil
}

func parsePins(v string) []sshexec.Pin {
	var out []sshexec.Pin
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, sshexec.Pin{Fingerprint: p})
		}
	}
	return out
}

// Kind names the adapter.
func (a *account) Kind() string { return Kind }

// queue is the template's clone slot: send to take it, receive to give it
// back.
func (a *account) queue(template int) chan struct{} {
	a.queuesMu.Lock()
	defer a.queuesMu.Unlock()
	q, ok := a.queues[template]
	if !ok {
		q = make(chan struct{}, 1)
		a.queues[template] = q
	}
	return q
}
