package sshexec

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/pkg/sftp"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Files is a Session that also writes and removes files through the SFTP
// subsystem of the same pinned, logged-in connection: for hosts where a
// file must land without a shell command carrying it (Proxmox snippets).
// The content travels only in SFTP write packets, never on a command
// line; errors name the step and the path, never the content.
type Files interface {
	Session
	// WriteFile creates or replaces path with data and mode.
	WriteFile(ctx context.Context, step, path string, data []byte, mode fs.FileMode) error
	// RemoveFile removes path; one that is not there is no error.
	RemoveFile(ctx context.Context, step, path string) error
}

var _ Files = (*conn)(nil)

// WriteFile implements Files.
func (s *conn) WriteFile(ctx context.Context, step, path string, data []byte, mode fs.FileMode) error {
	return s.sftp(ctx, step, func(c *sftp.Client) error {
		f, err := c.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
		if err != nil {
			return err
		}
		// The mode before the content, so the content is never readable
		// by others, not even for a moment.
		if err := f.Chmod(mode); err != nil {
			_ = f.Close()
			return err
		}
		if _, err := f.Write(data); err != nil {
			_ = f.Close()
			return err
		}
		return f.Close()
	})
}

// RemoveFile implements Files.
func (s *conn) RemoveFile(ctx context.Context, step, path string) error {
	return s.sftp(ctx, step, func(c *sftp.Client) error {
		err := c.Remove(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	})
}

// sftp runs fn on a new SFTP client of the connection, bounded by ctx and
// the command timeout: pkg/sftp knows no context, so the connection is
// closed when the bound passes, which ends fn.
func (s *conn) sftp(ctx context.Context, step string, fn func(*sftp.Client) error) error {
	ctx, cancel := context.WithTimeout(ctx, orDefault(s.c.CommandTimeout, DefaultCommandTimeout))
	defer cancel()
	done := make(chan error, 1)
	go func() {
		c, err := sftp.NewClient(s.client)
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		done <- fn(c)
	}()
	select {
	case err := <-done:
		if err == nil {
			return nil
		}
		var st *sftp.StatusError
		if errors.As(err, &st) || errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist) {
			return adapter.Errorf(adapter.InvalidConfig, "step %q on %s: the SFTP server refused the file operation (%s); check the storage path and the SSH user's rights",
				step, s.target.addr(), sftpReason(err))
		}
		return s.dropped(step, err)
	case <-ctx.Done():
		s.die("the SFTP step's bound passed or the call was canceled")
		<-done
		return transient(ErrDropped, ctx.Err(), "step %q on %s did not finish: %v", step, s.target.addr(), ctx.Err())
	}
}

// sftpReason names an SFTP failure without its text, which may quote a path
// the caller did not choose to show.
func sftpReason(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	}
	var st *sftp.StatusError
	if errors.As(err, &st) {
		return fmt.Sprintf("SFTP status %d", st.Code)
	}
	return "failure"
}
