package sshhost

import (
	"slices"
	"sync"
	"time"
)

// Command is one exec request as a machine received it. The stdin bytes are
// never kept, only how many the command read, so a test can search the
// record for a secret and find none.
type Command struct {
	Machine int       `json:"machine"`
	System  string    `json:"system"` // "rescue" or "installed"
	Time    time.Time `json:"time"`
	Line    string    `json:"line"`
	// StdinBytes is how many bytes of stdin the command consumed; it is
	// final once the command ended.
	StdinBytes int64 `json:"stdin_bytes"`
	// Exit is the status the session was told, -1 while it runs or when
	// the session was cut before it was told.
	Exit int `json:"exit"`
	// Detached is set for work started by setsid -f, recorded by its
	// command line as the session saw it.
	Detached bool `json:"detached,omitempty"`
}

// EnvRequest is one env request a session made (and was refused): the
// name only, and the value's length.
type EnvRequest struct {
	Machine     int       `json:"machine"`
	System      string    `json:"system"`
	Time        time.Time `json:"time"`
	Name        string    `json:"name"`
	ValueLength int       `json:"value_length"`
}

// journal is the farm's record of commands and env requests.
type journal struct {
	mu       sync.Mutex
	commands []*Command
	env      []EnvRequest
	onDone   func(Command)
}

func (j *journal) command(c Command) *Command {
	j.mu.Lock()
	defer j.mu.Unlock()
	p := &c
	j.commands = append(j.commands, p)
	return p
}

// finish sets what a command consumed and how it ended.
func (j *journal) finish(c *Command, stdin int64, exit int) {
	j.mu.Lock()
	c.StdinBytes = stdin
	c.Exit = exit
	done, hook := *c, j.onDone
	j.mu.Unlock()
	if hook != nil {
		hook(done)
	}
}

func (j *journal) envRequest(e EnvRequest) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.env = append(j.env, e)
}

func (j *journal) commandsOf(machine int) []Command {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Command, 0, len(j.commands))
	for _, c := range j.commands {
		if machine == 0 || c.Machine == machine {
			out = append(out, *c)
		}
	}
	return out
}

func (j *journal) envOf(machine int) []EnvRequest {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(j.env), func(e EnvRequest) bool {
		return machine != 0 && e.Machine != machine
	})
}

// Commands returns every exec line any machine received, in order.
func (f *Farm) Commands() []Command { return f.journal.commandsOf(0) }

// EnvRequests returns every env request any session made, in order.
func (f *Farm) EnvRequests() []EnvRequest { return f.journal.envOf(0) }

// Commands returns the exec lines this machine received, in order.
func (m *Machine) Commands() []Command { return m.farm.journal.commandsOf(m.number) }

// EnvRequests returns the env requests this machine's sessions made.
func (m *Machine) EnvRequests() []EnvRequest { return m.farm.journal.envOf(m.number) }
