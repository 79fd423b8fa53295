package fleet

import "sync"

// StatusEvent is pushed to consoles when a device's status or alarm status changes.
type StatusEvent struct {
	DeviceID    int64  `json:"deviceId"`
	SN          string `json:"sn"`
	CustomerID  int64  `json:"customerId"`
	SiteID      int64  `json:"siteId"`
	Status      int    `json:"status"`
	AlarmStatus int    `json:"alarmStatus"`
	Online      bool   `json:"online"`
	Time        int64  `json:"time"`
}

// Hub fans status events out to subscribers (server-sent event streams). A slow subscriber
// loses events rather than slowing the gateway; the console's 30 s polling is the fallback.
type Hub struct {
	mu    sync.Mutex
	subs  map[chan StatusEvent]struct{}
	relay func(StatusEvent) // sends this node's events to the other nodes (cluster), or nil
}

// SetRelay makes every event published here also go to f (another node's Deliver).
func (h *Hub) SetRelay(f func(StatusEvent)) {
	h.mu.Lock()
	h.relay = f
	h.mu.Unlock()
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{subs: map[chan StatusEvent]struct{}{}} }

// Subscribe returns a channel of events and a function that ends the subscription.
func (h *Hub) Subscribe() (<-chan StatusEvent, func()) {
	ch := make(chan StatusEvent, 256)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs, ch)
		h.mu.Unlock()
	}
}

// Publish sends an event of this node to every subscriber, and to the other nodes.
func (h *Hub) Publish(e StatusEvent) {
	h.Deliver(e)
	h.mu.Lock()
	relay := h.relay
	h.mu.Unlock()
	if relay != nil {
		relay(e)
	}
}

// Deliver sends e to this node's subscribers only, without blocking (events from other nodes).
func (h *Hub) Deliver(e StatusEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- e:
		default:
		}
	}
}
