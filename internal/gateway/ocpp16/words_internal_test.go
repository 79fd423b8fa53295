package ocpp16

import (
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/extendedtriggermessage"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/remotetrigger"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/fleet"
)

// Every message the core lets a TriggerMessage ask for has its OCPP 1.6 MessageTrigger, or
// the security extension's ExtendedTriggerMessage, one the library's own check accepts; a
// message OCPP 1.6 lacks has none.
func TestMessageTrigger(t *testing.T) {
	t.Parallel()
	for _, tr := range fleet.Triggers {
		t.Run(string(tr), func(t *testing.T) {
			if ext, ok := extendedTrigger(tr); ok {
				if err := types.Validate.Struct(extendedtriggermessage.NewExtendedTriggerMessageRequest(ext)); err != nil {
					t.Fatalf("ExtendedTriggerMessage %q refused: %v", ext, err)
				}
				return
			}
			m, ok := messageTrigger(tr)
			if !ok {
				t.Fatalf("no MessageTrigger for %q", tr)
			}
			if err := types.Validate.Struct(remotetrigger.NewTriggerMessageRequest(m)); err != nil {
				t.Fatalf("TriggerMessage %q refused: %v", m, err)
			}
		})
	}
	t.Run("a message OCPP 1.6 lacks", func(t *testing.T) {
		if m, ok := messageTrigger(fleet.Trigger("SignedFirmwareStatusNotification")); ok {
			t.Fatalf("mapped to %q", m)
		}
	})
}
