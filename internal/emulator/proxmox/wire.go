package proxmox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// apiError is an error answer: pveproxy puts the message into the HTTP
// reason phrase and answers {"data":null}, adding "errors" (parameter →
// message) to a 400 for parameters that failed the schema.
type apiError struct {
	status  int
	message string
	errors  map[string]string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.status, e.message) }

func failf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, message: fmt.Sprintf(format, args...)}
}

// paramError is PVE's 400 for parameters the schema refuses.
func paramError(errs map[string]string) *apiError {
	return &apiError{status: http.StatusBadRequest, message: "Parameter verification failed.", errors: errs}
}

// notDefined is what PVE says of a parameter its schema lacks.
const notDefined = "property is not defined in schema and the schema does not allow additional properties"

// errorEnvelope is the body written for an error; Message travels to the
// phraseWriter, which moves it into the reason phrase and drops it.
type errorEnvelope struct {
	Data    any               `json:"data"`
	Errors  map[string]string `json:"errors,omitempty"`
	Message string            `json:"message,omitempty"`
}

func (e *apiError) body() []byte {
	b, _ := json.Marshal(errorEnvelope{Errors: e.errors, Message: e.message})
	return b
}

func writeError(w http.ResponseWriter, e *apiError) {
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	w.WriteHeader(e.status)
	_, _ = w.Write(e.body())
}

// errorBody renders failures scripted through the faults middleware: a
// scripted message is the reason phrase; without one, the status's own
// text, as pveproxy sends for errors it has no words for.
func errorBody(status int, _ string, message string) []byte {
	if message == "" {
		message = http.StatusText(status)
		if message == "" {
			message = "injected failure"
		}
	}
	return (&apiError{status: status, message: message}).body()
}

func writeData(w http.ResponseWriter, data any) {
	b, err := json.Marshal(map[string]any{"data": data})
	if err != nil {
		writeError(w, failf(http.StatusInternalServerError, "encoding response: %v", err))
		return
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// phraseWriter holds an error answer back until the handler returns and
// then writes it the way pveproxy does, the message as the reason phrase
// ("HTTP/1.1 500 VM 100 is locked (clone)"), which Go's net/http cannot
// send but through a hijacked connection. Where the connection cannot be
// hijacked (a recorder in a test) the message stays in the body.
type phraseWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (p *phraseWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }

func (p *phraseWriter) WriteHeader(status int) {
	if p.status != 0 {
		return
	}
	p.status = status
	if status < 400 {
		p.ResponseWriter.WriteHeader(status)
	}
}

func (p *phraseWriter) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.WriteHeader(http.StatusOK)
	}
	if p.status < 400 {
		return p.ResponseWriter.Write(b)
	}
	return p.body.Write(b)
}

func (p *phraseWriter) finish() {
	if p.status < 400 {
		return
	}
	var env errorEnvelope
	message := http.StatusText(p.status)
	if json.Unmarshal(p.body.Bytes(), &env) == nil && env.Message != "" {
		message = env.Message
	}
	// A reason phrase is one line.
	message = strings.NewReplacer("\r", " ", "\n", " ").Replace(strings.TrimSpace(message))
	conn, buf, err := http.NewResponseController(p.ResponseWriter).Hijack()
	if err != nil {
		p.ResponseWriter.WriteHeader(p.status)
		_, _ = p.ResponseWriter.Write(p.body.Bytes())
		return
	}
	defer conn.Close()
	env.Message = ""
	body, _ := json.Marshal(env)
	fmt.Fprintf(buf, "HTTP/1.1 %03d %s\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		p.status, message, len(body), body)
	_ = buf.Flush()
}

// parseParams reads the parameters into r.Form: the query for every
// method, and for POST and PUT a form body or, as PVE also takes, a JSON
// object (numbers and booleans as PVE reads them: 1/0 for booleans).
func parseParams(r *http.Request) *apiError {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "application/json" || r.Method == http.MethodGet || r.Method == http.MethodDelete {
		if err := r.ParseForm(); err != nil {
			return failf(http.StatusBadRequest, "unable to parse parameters: %v", err)
		}
		return nil
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return failf(http.StatusBadRequest, "unable to read body: %v", err)
	}
	obj := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &obj); err != nil {
			return failf(http.StatusBadRequest, "unable to parse JSON body: %v", err)
		}
	}
	r.Form = r.URL.Query()
	if r.Form == nil {
		r.Form = url.Values{}
	}
	for k, v := range obj {
		switch v := v.(type) {
		case string:
			r.Form.Set(k, v)
		case float64:
			r.Form.Set(k, strconv.FormatFloat(v, 'f', -1, 64))
		case bool:
			r.Form.Set(k, map[bool]string{true: "1", false: "0"}[v])
		case nil:
		default:
			b, _ := json.Marshal(v)
			r.Form.Set(k, string(b))
		}
	}
	return nil
}

// boolParam reads a PVE boolean (1/0, true/false, yes/no, on/off).
func boolParam(r *http.Request, name string) bool {
	b, _ := parseBool(r.Form.Get(name))
	return b
}
