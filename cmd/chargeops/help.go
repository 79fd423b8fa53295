package main

import (
	"flag"
	"fmt"
	"io"

	demoseed "chargeops/internal/demo"
)

// commandHelp heads `chargeops <command> --help`: what the command does, before its options.
var commandHelp = map[string]string{
	"serve": "Runs the console, the API and the OCPP gateway until SIGINT/SIGTERM (applies migrations first).",
	"demo": "Runs chargeops like serve, with a demo organisation to try it on: on an empty database it\n" +
		"seeds two customers, their sites, device models, about fifty chargers and one user per kind of\n" +
		"role, then simulates those chargers on this node's gateway, and five storage units behind a\n" +
		"simulated site agent on its embedded MQTT broker. Without --public-url it listens on\n" +
		"loopback only. Restarted on the same data, it keeps the data and lists the demo sign-ins that\n" +
		"still exist. The super admin is " + demoRootName + " (password " + demoRootPassword + " unless --demo-password).",
	"migrate":          "Applies the database migrations and exits.",
	"user create-root": "Creates a super admin, or resets an existing one's password (ending its sessions).",
	"sim":              "Runs simulated OCPP 1.6J chargers against a gateway.",
}

// setUsage makes `chargeops <name> --help` describe that command, then list its options.
func setUsage(fs *flag.FlagSet, name string) {
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: chargeops %s [options]\n\n", name)
		if h := commandHelp[name]; h != "" {
			fmt.Fprintf(out, "%s\n\n", h)
		}
		fmt.Fprintln(out, "Options (every one also as CHARGEOPS_<NAME> and in a --config JSON file):")
		fs.PrintDefaults()
	}
}

// printDemoSignIns lists the demo sign-ins that exist now; seeded: the data was made by this start
// (so the super admin's password is the one just set).
func printDemoSignIns(w io.Writer, seeded, rootExists bool, password string, accounts []demoseed.Account) {
	switch {
	case rootExists && seeded:
		fmt.Fprintf(w, "  sign in as %s (password %s)\n", demoRootName, password)
	case rootExists:
		fmt.Fprintf(w, "  sign in as %s (password %s unless set with --demo-password or changed since)\n", demoRootName, demoRootPassword)
	default:
		fmt.Fprintf(w, "  the demo super admin %s no longer exists: chargeops user create-root --name NAME --password PASSWORD\n", demoRootName)
	}
	note := ""
	if !seeded {
		note = " unless changed since"
	}
	for _, acc := range accounts {
		fmt.Fprintf(w, "  or as %-15s %-23s password %s%s\n", acc.UserName, "("+acc.Role+")", demoseed.Password, note)
	}
	fmt.Fprintln(w)
}

// printDemoAdmission says under the sign-ins whether chargers without a key are admitted: the
// demo admits them (its simulated chargers have none), serve does not.
func printDemoAdmission(w io.Writer, requireKeys bool) {
	if requireKeys {
		fmt.Fprintf(w, "  chargers without a key are refused (--require-device-keys)\n\n")
		return
	}
	fmt.Fprintf(w, "  chargers without a key are admitted by their SN: a demo choice; chargeops serve refuses them\n\n")
}
