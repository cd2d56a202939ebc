package bootstrap

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

func TestRequestFieldNamesTheAttribute(t *testing.T) {
	for field, want := range map[string]path.Path{
		"files[1].path":         path.Root("files").AtListIndex(1).AtName("path"),
		"files[0]":              path.Root("files").AtListIndex(0),
		"first_boot.command[2]": path.Root("first_boot").AtName("command").AtListIndex(2),
		"first_boot.url":        path.Root("first_boot").AtName("url"),
		"hostname":              path.Root("hostname"),
		"machine_id":            path.Root("machine_id"),
	} {
		got, ok := requestField(field)
		if !ok || !got.Equal(want) {
			t.Errorf("requestField(%q) = %s, %t; want %s", field, got, ok, want)
		}
	}
	for _, field := range []string{"", "secret", "files[x].path", "account", "files[1]..path"} {
		if got, ok := requestField(field); ok {
			t.Errorf("requestField(%q) = %s; want no attribute", field, got)
		}
	}
}
