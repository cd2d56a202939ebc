package proxmox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// apiError is an error answer of the PVE API: an HTTP status whose reason
// phrase carries the message ("500 VM 100123 is locked (clone)"), a body
// {"data":null}, and for parameter errors {"errors":{param: msg}} with 400.
// A task that ended with another exitstatus than OK is one too (Status 0,
// the exitstatus as Message), so a task's failure is classified alike.
type apiError struct {
	What    string // "POST /nodes/{node}/qemu/{vmid}/clone", the route template
	Status  int
	Message string
	Params  map[string]string
	// retryAfter is a Retry-After header, which a proxy may send.
	retryAfter time.Duration
}

func (e *apiError) Error() string {
	var b strings.Builder
	if e.Status != 0 {
		fmt.Fprintf(&b, "HTTP %d", e.Status)
	} else {
		b.WriteString("task failed")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for k := range e.Params {
			if !yield(k) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "; %s: %s", p, strings.TrimSpace(e.Params[p]))
	}
	return b.String()
}

// parseAPIError reads an error answer. statusLine is Go's resp.Status,
// "500 VM 100 is locked (clone)", whose text after the code is PVE's message.
func parseAPIError(what string, status int, statusLine string, body []byte) *apiError {
	out := &apiError{What: what, Status: status}
	msg := strings.TrimSpace(strings.TrimPrefix(statusLine, strconv.Itoa(status)))
	var env struct {
		Errors  map[string]string `json:"errors"`
		Message string            `json:"message"`
	}
	if json.Unmarshal(body, &env) == nil {
		out.Params = env.Errors
		if env.Message != "" {
			msg = strings.TrimSpace(env.Message)
		}
	}
	if msg == http.StatusText(status) {
		msg = ""
	}
	out.Message = msg
	return out
}

// The messages PVE words its refusals with (qemu-server, pve-common,
// pve-storage and pveproxy), matched case-insensitively on the message alone.
//
// PVE answers most failures with 500, the permanent ones too, so the 500s
// below are told apart by their words: a VM that is not there (NotFound,
// since it will not appear by asking again), a storage that does not exist
// (InvalidConfig: only another setting helps), a VMID taken (Conflict), a
// storage full (QuotaExceeded), a VM in the wrong state (InvalidState).
// Every other 500 (a lock, a timeout, a daemon restarting, words not seen
// before) is Transient, and the contract's retry asks again.
var (
	// "Configuration file 'nodes/pve1/qemu-server/100.conf' does not exist"
	// (PVE::AbstractConfig), "no such VM ('100')" (older load_config, the
	// firewall API), "unable to find configuration file for VM 100 - no
	// such machine" (check_running, a clone of a template gone).
	notExist = regexp.MustCompile(`(?i)configuration file '[^']*' does not exist|no such vm \('\d+'\)|unable to find configuration file for vm \d+`)
	// "storage 'fast' does not exist" (PVE::Storage::storage_config): a
	// clone, a cloud-init drive or a disk naming a storage the cluster lacks.
	storageMissing = regexp.MustCompile(`(?i)storage '([^']+)' does not exist`)
	locked         = []string{"is locked", "can't lock file", "got timeout"}
	alreadyExists  = []string{"already exists"}
	notRunning     = []string{"not running", "is a template", "vm is running"}
	noSpace        = []string{"insufficient free space", "not enough space", "no space left"}
)

func has(msg string, words []string) bool {
	m := strings.ToLower(msg)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(m, w) })
}

// storageHint is the way out of a storage that does not exist.
const storageHint = "; set storage to a storage the cluster has (`pvesm status` on a node lists them)"

// storageFault places a refusal naming a missing storage: on the storage
// setting when the account sets it, else on the image, whose template
// keeps its disks (and so the clone's) on that storage.
func (a *account) storageFault(err error) error {
	var e *adapter.Error
	if a.storage != "" || !errors.As(err, &e) || e.Field != settingStorage {
		return err
	}
	out := *e
	out.Code, out.Field = adapter.InvalidInput, adapter.FieldImage
	out.Message = strings.Replace(e.Message, storageHint,
		"; the template's disks are there and the account sets no storage: use a template whose storage the node has, or set storage", 1)
	return &out
}

// paramFields maps PVE's parameter names onto the attributes users write.
var paramFields = map[string]string{
	"name":      adapter.FieldName,
	"node":      adapter.FieldLocation,
	"target":    adapter.FieldLocation,
	"cores":     adapter.FieldOfferID,
	"memory":    adapter.FieldOfferID,
	"size":      adapter.FieldOfferID,
	"storage":   settingStorage,
	"ipconfig0": settingIPConfig,
	"ciuser":    settingCIUser,
	"sshkeys":   settingSSHPublicKeys,
	"cicustom":  settingSnippetStorage,
}

// classify turns any error of the client, the transport, a task or the
// context into an *adapter.Error with exactly one code: the REST backends'
// frame (rest.Classify), with PVE's answers and failed tasks placed by
// classifyAPI and a refused certificate by placeFailure. Messages carry
// PVE's own message, never a request body or the token.
func classify(err error) error {
	return rest.Classify(err, "the PVE API", classifyAPI, placeFailure)
}

func classifyAPI(e *apiError) *adapter.Error {
	out := &adapter.Error{Code: codeOf(e), Err: e, Message: e.Error()}
	switch out.Code {
	case adapter.AccessDenied:
		out.Field = settingAPIToken
		if e.Status == http.StatusForbidden {
			out.Message += "; grant the token (or, with privilege separation, the token itself) the privilege named, e.g. with `pveum acl modify / --tokens USER@REALM!ID --roles PVEVMAdmin`"
		} else {
			out.Message += "; check that api_token resolves to a valid, unexpired token USER@REALM!TOKENID=SECRET"
		}
	case adapter.InvalidInput:
		for p := range e.Params {
			if f, ok := paramFields[p]; ok {
				out.Field = f
				break
			}
		}
	case adapter.InvalidConfig:
		if storageMissing.MatchString(e.Message) {
			out.Field = settingStorage
			out.Message += storageHint
			break
		}
		out.Field = settingEndpoint
		out.Message += "; check that endpoint is the PVE API's base URL, such as " + exampleEndpoint
	case adapter.RateLimited:
		out.RetryAfter = max(e.retryAfter, time.Second)
	case adapter.QuotaExceeded:
		out.Message += "; free space on the storage, or set storage to another one"
	}
	return out
}

// codeOf places a PVE error: by its message first, since PVE answers most
// failures with 500 and says what it is in words, then by status.
func codeOf(e *apiError) adapter.Code {
	switch e.Status {
	case http.StatusUnauthorized:
		return adapter.AccessDenied // "authentication failure", "no ticket"
	case http.StatusForbidden:
		return adapter.AccessDenied // "Permission check failed (/vms/100, VM.Allocate)"
	case http.StatusBadRequest:
		return adapter.InvalidInput // "Parameter verification failed." with errors
	case http.StatusTooManyRequests:
		return adapter.RateLimited // never PVE itself; a proxy in front of it
	case http.StatusNotImplemented:
		return adapter.Unsupported // "Method 'GET /nodes/pve1/foo' not implemented"
	case http.StatusNotFound:
		return adapter.InvalidConfig // not PVE: pveproxy answers unknown paths with 501
	case 595, 596:
		return adapter.Transient // pveproxy cannot reach the node
	}
	switch {
	case storageMissing.MatchString(e.Message):
		return adapter.InvalidConfig
	case notExist.MatchString(e.Message):
		if strings.Contains(e.What, "{vmid}") || strings.HasPrefix(e.What, "task ") {
			return adapter.NotFound
		}
		// A listing or a node's read that fails in these words proves no
		// VM's absence, least of all the one asked about.
		return adapter.Transient
	case has(e.Message, locked):
		return adapter.Transient
	case has(e.Message, alreadyExists):
		return adapter.Conflict
	case has(e.Message, noSpace):
		return adapter.QuotaExceeded
	case has(e.Message, notRunning):
		return adapter.InvalidState
	}
	return adapter.Transient
}

// isAlreadyExists reports a clone refused because the VMID exists.
func isAlreadyExists(err error) bool {
	var api *apiError
	return errors.As(err, &api) && api.Status != http.StatusBadRequest && has(api.Message, alreadyExists)
}

// isNotExist reports PVE's "Configuration file … does not exist" and its
// other words for a VM that is not there (notExist).
func isNotExist(err error) bool {
	var api *apiError
	return errors.As(err, &api) && api.Status >= 500 && api.Status < 595 && notExist.MatchString(api.Message)
}

// fail classifies err and prefixes what was being done, e.g. "clone VM
// 9000 to 100123". The prefix must not contain user data or secrets.
func fail(what string, err error) error { return adapter.Within(what, classify(err)) }
