package fleet

// SignedValue is one signed meter value of a charging session, as the charger sent it
// (session_signed_value; docs/ocpp16.md, "MeterValues").
type SignedValue struct {
	ConnectorID int    `json:"connectorId"`
	Measurand   string `json:"measurand"`
	Context     string `json:"context"`
	Format      string `json:"format"`
	Value       string `json:"value"`
	At          int64  `json:"time"`
}
