package sim

import (
	"context"
	"time"
)

// The charger's side of the operator actions (control types 12-18; docs/gateway.md,
// "Commands"): a remote start begins a session like the charger's own, a remote stop ends it
// with reason Remote, unlock answers Unlocked, ClearCache Accepted, a DataTransfer of another
// message is echoed, and a reservation holds its connector (status Reserved) until it expires,
// is cancelled or a session starts with it.

// connState is what holds a connector: a session (busy, its transaction id and the channel a
// remote stop ends it through) or a reservation (its id, token and timer).
type connState struct {
	busy        bool
	txID        int
	stop        chan string
	reservation int
	resTag      string
	resTimer    *time.Timer
	started     int64 // unix ms the transaction started (relative charging profiles count from it)
}

// stateLocked is conn's state; c.mu is held.
func (c *charger) stateLocked(conn int) *connState {
	cs := c.conns[conn]
	if cs == nil {
		cs = &connState{}
		if c.conns == nil {
			c.conns = map[int]*connState{}
		}
		c.conns[conn] = cs
	}
	return cs
}

// free reports whether conn has neither a session nor a reservation.
func (c *charger) free(conn int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs := c.stateLocked(conn)
	return !cs.busy && cs.reservation == 0
}

// claim takes conn for a session of tag: free, or reserved for tag. nil when it is held.
func (c *charger) claim(conn int, tag string) *connState {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs := c.stateLocked(conn)
	if cs.busy || (cs.reservation != 0 && (tag == "" || cs.resTag != tag)) {
		return nil
	}
	cs.busy, cs.txID, cs.stop = true, 0, make(chan string, 1)
	return cs
}

// release ends conn's session; a charger cut off the network (Fleet.Offline) keeps it: the
// session goes on there, out of chargeops' sight.
func (c *charger) release(conn int) {
	c.mu.Lock()
	if c.cut {
		c.mu.Unlock()
		return
	}
	cs := c.stateLocked(conn)
	cs.busy, cs.txID = false, 0
	c.mu.Unlock()
}

// takeReservation ends conn's reservation and returns its id (0: none).
func (c *charger) takeReservation(conn int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs := c.stateLocked(conn)
	id := cs.reservation
	if cs.resTimer != nil {
		cs.resTimer.Stop()
	}
	cs.reservation, cs.resTag, cs.resTimer = 0, "", nil
	return id
}

// operation answers the operator actions; false for any other action.
func (c *charger) operation(ctx context.Context, action string, req map[string]any) (any, bool) {
	str := func(k string) string { s, _ := req[k].(string); return s }
	num := func(k string) int { f, _ := req[k].(float64); return int(f) }
	status := func(s string) (any, bool) { return map[string]string{"status": s}, true }
	switch action {
	case "RemoteStartTransaction":
		return status(c.remoteStart(ctx, num("connectorId"), str("idTag")))
	case "RemoteStopTransaction":
		return status(c.remoteStop(num("transactionId")))
	case "UnlockConnector":
		if conn := num("connectorId"); conn < 1 || conn > c.o.Connectors {
			return status("NotSupported")
		}
		return status("Unlocked")
	case "ClearCache":
		return status("Accepted")
	case "ReserveNow":
		expiry, _ := time.Parse(time.RFC3339, str("expiryDate"))
		return status(c.reserveNow(ctx, num("connectorId"), num("reservationId"), str("idTag"), expiry))
	case "CancelReservation":
		return status(c.cancelReservation(ctx, num("reservationId")))
	}
	return nil, false
}

// remoteStart begins a session of idTag on conn (0: the first connector free for it): Accepted
// at once, then Preparing, StartTransaction (with the reservation it used), Charging and meter
// values like the charger's own sessions.
func (c *charger) remoteStart(ctx context.Context, conn int, idTag string) string {
	var cs *connState
	for i := 1; i <= c.o.Connectors && cs == nil; i++ {
		if conn == 0 || conn == i {
			if cs = c.claim(i, idTag); cs != nil {
				conn = i
			}
		}
	}
	c.mu.Lock()
	disabled := c.disabled[conn] || c.disabled[0]
	c.mu.Unlock()
	if cs == nil || disabled {
		if cs != nil {
			c.release(conn)
		}
		return "Rejected"
	}
	c.st.Sessions.Add(1)
	go func() {
		defer c.release(conn)
		reservationID := c.takeReservation(conn)
		c.status(ctx, conn, "Preparing", "NoError")
		c.charge(ctx, conn, cs, idTag, reservationID)
	}()
	return "Accepted"
}

// remoteStop ends the session of transaction txID with reason Remote.
func (c *charger) remoteStop(txID int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cs := range c.conns {
		if cs.busy && cs.txID == txID && txID != 0 {
			select {
			case cs.stop <- "Remote":
			default:
			}
			return "Accepted"
		}
	}
	return "Rejected"
}

// reserveNow holds conn for idTag until expiry: Accepted and status Reserved; Unavailable when
// the connector is disabled, Occupied when a session or another reservation holds it.
func (c *charger) reserveNow(ctx context.Context, conn, id int, idTag string, expiry time.Time) string {
	if conn < 1 || conn > c.o.Connectors {
		return "Rejected"
	}
	c.mu.Lock()
	cs := c.stateLocked(conn)
	switch {
	case c.disabled[conn] || c.disabled[0]:
		c.mu.Unlock()
		return "Unavailable"
	case cs.busy || (cs.reservation != 0 && cs.reservation != id):
		c.mu.Unlock()
		return "Occupied"
	}
	if cs.resTimer != nil {
		cs.resTimer.Stop()
	}
	cs.reservation, cs.resTag = id, idTag
	cs.resTimer = time.AfterFunc(time.Until(expiry), func() {
		c.mu.Lock()
		mine := cs.reservation == id && !cs.busy
		if mine {
			cs.reservation, cs.resTag, cs.resTimer = 0, "", nil
		}
		c.mu.Unlock()
		if mine {
			c.status(ctx, conn, "Available", "NoError")
		}
	})
	c.mu.Unlock()
	go c.status(ctx, conn, "Reserved", "NoError")
	return "Accepted"
}

// cancelReservation ends reservation id: Accepted and status Available, or Rejected when no
// connector holds it.
func (c *charger) cancelReservation(ctx context.Context, id int) string {
	c.mu.Lock()
	conn := 0
	for n, cs := range c.conns {
		if cs.reservation == id && id != 0 {
			conn = n
		}
	}
	c.mu.Unlock()
	if conn == 0 {
		return "Rejected"
	}
	c.takeReservation(conn)
	go c.status(ctx, conn, "Available", "NoError")
	return "Accepted"
}

// dataTransfer answers a DataTransfer other than the remote link's: Accepted, echoing its data.
func (c *charger) dataTransfer(req map[string]any) any {
	res := map[string]any{"status": "Accepted"}
	if d, ok := req["data"]; ok {
		res["data"] = d
	}
	return res
}
