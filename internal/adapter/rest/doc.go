// Package rest is the one JSON-over-HTTP client of the backends that speak
// a REST API through net/http (Robot, Proxmox VE): one request per call,
// never sent twice (adapter.Retry decides about another attempt, on the
// account's clock), with the contract's rules for a request built in:
//
//   - the credentials are resolved for each request by the backend's
//     Authenticate and kept by no field of the client (rule 6, no secret
//     leaves, of internal/adapter's package documentation);
//   - every request has its own bound, the backend's default or
//     Env.RequestTimeout (rule 7, honour the context);
//   - a redirect is never followed, so the credentials go nowhere else;
//   - the log shows the route template, never the filled path, the query,
//     a header value or a body;
//   - an error answer that repeats a credential has it withheld before the
//     backend reads it, and its Retry-After is read for the backend;
//   - a successful answer that is not JSON (a web page) is a wrong
//     endpoint, never an answer (rule 3, authoritative absence), and so is
//     a NotFound from a listing (adapter.ListingFailed, which every
//     backend's listings use).
//
// The client classifies nothing on its own (rule 5, one classify): an
// error answer goes to the backend's Failed, whose error the callers read
// and classify, and a request that got no answer to read goes, as a
// *Failure, to the backend's Classify, which places it with
// Failure.Classified or a reading of its own (a pinned certificate).
//
// An API that answers errors as {"error": {"code", "message"}} and takes
// one bearer token needs only tables: Config.Failed is ReadCoded, the one
// classify is a Codes' Classify (its listings' Listing), whose table test
// internal/adapter/rest/resttest derives from the same Codes, and
// Config.Authenticate is Bearer.
//
// It imports only the standard library and internal/adapter, never a
// backend's package: a backend configures it with Config.
package rest
