package fleettest

import (
	"testing"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/testutil/apitest"
)

// Node starts a whole node on d (apitest) with its own data directory, seeds the organisation
// and adds the device sn at customer A's site; set changes the node's configuration before it
// starts. It returns the node, the organisation and the device's id.
func Node(t *testing.T, d *db.DB, sn string, set ...func(*config.Config)) (*apitest.Env, Org, int64) {
	t.Helper()
	env := apitest.New(t, d, func(c *config.Config) {
		c.DataDir = t.TempDir()
		for _, f := range set {
			f(c)
		}
	})
	org := Seed(t, d)
	return env, org, Device(t, d, org, org.CustomerA, org.SiteA, sn)
}
