package hcloud

// SetIgnoresACPI makes the guest of server id ignore (or honour again) the
// ACPI requests of the shutdown and reboot actions, as a guest without an
// ACPI daemon, or one that is hung, does: the actions still succeed, since
// the API's action only reports that the request was sent, and the server
// stays running without restarting. It is how tests reach a caller's
// fallback to poweroff or reset. Unknown ids are ignored.
func (e *Emulator) SetIgnoresACPI(id int64, ignores bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s, ok := e.servers[id]; ok {
		s.ignoresACPI = ignores
	}
}
