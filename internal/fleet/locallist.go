package fleet

import "context"

// The local authorization list (control types 19 and 20; docs/tokens.md): the core builds the
// list from the customer's tokens and keeps the version each charger holds; a protocol adapter
// only carries it. internal/token implements LocalLists.

// LocalListEntry is one idTag of a list; Info nil removes the idTag (a differential update).
type LocalListEntry struct {
	IDTag string
	Info  *TokenAnswer
}

// LocalList is what a SendLocalList carries: the version the charger holds after it, and the
// entries (every token for a full update, the changes for a differential one).
type LocalList struct {
	Version int64
	Full    bool
	Entries []LocalListEntry
}

// LocalLists builds local lists and keeps the version each charger holds.
type LocalLists interface {
	// Build returns the list to send dev: full, or the changes since the version dev holds
	// (a full list when that is not known). refusal is a message key when nothing may be sent
	// (the list is longer than the charger accepts, or its local list is disabled).
	Build(ctx context.Context, dev *Device, full bool) (list LocalList, refusal string, err error)
	// Held records the version dev holds: its GetLocalListVersion answer (sent false) or the
	// version of a list it accepted (sent true).
	Held(ctx context.Context, dev *Device, version int64, sent bool) error
}
