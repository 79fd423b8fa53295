package sim

import (
	"encoding/json"
	"strconv"
)

// The simulated charger's local authorization list (OCPP 1.6 Local Auth List Management): it
// keeps the idTags it was sent and their status, answers GetLocalListVersion with its version,
// and takes SendLocalList as a real charger does: Failed beyond its SendLocalListMaxLength,
// VersionMismatch for a differential update whose version is not higher than the one it holds.

// simListMax is the simulated charger's SendLocalListMaxLength and LocalAuthListMaxLength.
const simListMax = 1000

// localList is what the charger holds.
type localList struct {
	version int
	tags    map[string]string // idTag → status
}

// localListConfig are the configuration keys of the profile, as GetConfiguration reports them.
func localListConfig() map[string]string {
	n := strconv.Itoa(simListMax)
	return map[string]string{"LocalAuthListEnabled": "true", "LocalAuthListMaxLength": n, "SendLocalListMaxLength": n}
}

// sendLocalListRequest is the payload of SendLocalList.
type sendLocalListRequest struct {
	ListVersion int    `json:"listVersion"`
	UpdateType  string `json:"updateType"`
	List        []struct {
		IDTag string `json:"idTag"`
		Info  *struct {
			Status string `json:"status"`
		} `json:"idTagInfo"`
	} `json:"localAuthorizationList"`
}

// answerSendLocalList applies a SendLocalList to the charger's list.
func (c *charger) answerSendLocalList(raw json.RawMessage) map[string]string {
	var req sendLocalListRequest
	if err := json.Unmarshal(raw, &req); err != nil || (req.UpdateType != "Full" && req.UpdateType != "Differential") {
		return map[string]string{"status": "Failed"}
	}
	max := simListMax
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, err := strconv.Atoi(c.config["SendLocalListMaxLength"]); err == nil {
		max = v
	}
	if len(req.List) > max {
		return map[string]string{"status": "Failed"}
	}
	if req.UpdateType == "Differential" && req.ListVersion <= c.list.version {
		return map[string]string{"status": "VersionMismatch"}
	}
	if req.UpdateType == "Full" || c.list.tags == nil {
		c.list.tags = map[string]string{}
	}
	for _, e := range req.List {
		if e.Info == nil {
			delete(c.list.tags, e.IDTag)
			continue
		}
		c.list.tags[e.IDTag] = e.Info.Status
	}
	c.list.version = req.ListVersion
	return map[string]string{"status": "Accepted"}
}

// answerGetLocalListVersion reports the version the charger holds (0: an empty list).
func (c *charger) answerGetLocalListVersion() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return map[string]int{"listVersion": c.list.version}
}
