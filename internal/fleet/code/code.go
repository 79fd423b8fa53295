// Package code is the old home of the stored device values, now internal/devstate. It keeps
// only what internal/device still names from here, and goes when internal/device imports
// devstate (its own helper's change; issue 28).
package code

import "chargeops/internal/devstate"

// StatusOffline is devstate.StatusOffline.
//
// Deprecated: use devstate.StatusOffline.
const StatusOffline = devstate.StatusOffline
