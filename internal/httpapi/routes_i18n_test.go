package httpapi

import (
	"testing"

	"chargeops/internal/i18n"
)

// Every interface has a name in both languages: the English Summary of the route table and a
// Chinese name in internal/i18n (the interface list shows the caller's language).
func TestEveryRouteHasBothNames(t *testing.T) {
	t.Parallel()
	s := New(Deps{}, Options{}, nil)
	for _, rt := range s.Routes() {
		t.Run(rt.Method+" "+rt.Path, func(t *testing.T) {
			en, ok := i18n.InterfaceName(i18n.EnUS, rt.Method, rt.Path, rt.Summary)
			zh, _ := i18n.InterfaceName(i18n.ZhCN, rt.Method, rt.Path, rt.Summary)
			if rt.Summary == "" || en != rt.Summary {
				t.Errorf("no English name (Summary): %q", en)
			}
			if !ok || zh == en {
				t.Errorf("no Chinese name in internal/i18n/interfaces.go")
			}
		})
	}
}
