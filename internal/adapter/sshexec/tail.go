package sshexec

// tail keeps the last max bytes written to it: a runaway command costs at
// most 2*max bytes of memory, and the end of a log (where the failing step
// is named) survives.
type tail struct {
	max int
	buf []byte
	cut bool
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
		t.cut = true
	}
	return len(p), nil
}

func (t *tail) bytes() []byte {
	if len(t.buf) > t.max {
		t.cut = true
		return t.buf[len(t.buf)-t.max:]
	}
	return t.buf
}
