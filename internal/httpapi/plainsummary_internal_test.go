package httpapi

import "testing"

func TestPlainSummary(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Add a customer": "Add a customer",
		`Send a remote operation (control type 1-20; docs/gateway.md, "Commands") to one or more devices`: "Send a remote operation to one or more devices",
		"An application's webhook deliveries, newest first (paged)":                                       "An application's webhook deliveries, newest first (paged)",
		"下发远程操作（控制类型 1-20，见 docs/gateway.md）":                                                             "下发远程操作",
	} {
		if got := plainSummary(in); got != want {
			t.Errorf("plainSummary(%q) = %q, want %q", in, got, want)
		}
	}
}
