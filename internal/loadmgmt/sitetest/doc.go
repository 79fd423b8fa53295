// Package sitetest holds the end-to-end test of site load management (docs/smart-charging.md):
// a whole node with its OCPP gateway, twenty simulated chargers (internal/sim) of one site,
// sessions started through the API, and the load manager sharing the site's limit among them
// on SQLite and PostgreSQL. It has no code of its own.
package sitetest
