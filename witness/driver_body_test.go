package witness

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestHandlerBodyAndRoute generates the calls of the gin and echo handlers
// of testdata/replaymod: the JSON body is built from the handler's own
// type (each field with its Go type, under its json tag once marshalled),
// and the emitted test serves the handler on the route the package
// registers it under, or on a route made of the counterexample's path
// parameters when that route lacks one.
func TestHandlerBodyAndRoute(t *testing.T) {
	dir, err := filepath.Abs("testdata/replaymod")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := LoadProgram(dir, "./ginwallet", "./echopoints", "./refunds")
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*packages.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) { byPath[p.PkgPath] = p })
	hs, err := lookupHandles(byPath)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		pkg, key string
		in       map[string]string
		// body and route are lines the body statement and the routed
		// call hold.
		body, route []string
		// sent, when set, is the body replay prints for in: the one the
		// driver sends, under the type's json tags.
		sent string
	}{
		{
			pkg: "example.com/replaymod/ginwallet", key: "(*API).Withdraw",
			in:    map[string]string{"$http.body": "{}", "$http.json.WalletNo": "7", "$http.json.Amount": "5"},
			body:  []string{"var zzb withdrawal", `zzb.WalletNo = string(in.String("$http.json.WalletNo"))`, `zzb.Amount = int64(in.Int("$http.json.Amount"))`},
			sent:  `{"amt":5,"wallet_no":"7"}`,
			route: []string{`return zzrtServeGin(ctx, in, "POST", "/withdrawals", func(zzc *zzgin.Context) error {`, ").Withdraw(zzc)"},
		},
		{
			pkg: "example.com/replaymod/echopoints", key: "(*Handler).Redeem",
			in:    map[string]string{"$http.path.id": "3"},
			body:  []string{"var zzb redemption", `zzb.Points = string(in.String("$http.json.Points"))`},
			route: []string{`return zzrtServeEcho(ctx, in, "POST", "/members/:id/redeem", func(zzc zzecho.Context) error {`},
		},
		{
			// A net/http handler decoding into a struct literal type: the
			// type is spelt out, tag included; the call is left as it is.
			pkg: "example.com/replaymod/refunds", key: "(*Handler).Refund",
			in:   map[string]string{"$http.path.id": "1"},
			body: []string{`var zzb struct{Amount int64 "json:\"amount\""}`, `zzb.Amount = int64(in.Int("$http.json.Amount"))`},
			sent: `{"amount":0}`,
		},
		{
			// A path parameter the registered route does not have.
			pkg: "example.com/replaymod/echopoints", key: "(*Handler).Redeem",
			in:    map[string]string{"$http.path.id": "3", "$http.path.code": "x"},
			route: []string{`zzrtServeEcho(ctx, in, "POST", "/zzdbverify/:code/:id", func(zzc zzecho.Context) error {`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.pkg+"."+tc.key, func(t *testing.T) {
			p := byPath[tc.pkg]
			g := &fileGen{pkg: p.Types, syntax: p, hs: hs, imports: map[string]string{}}
			spec := &EntrySpec{Name: tc.pkg + "." + tc.key, Pkg: tc.pkg, Key: tc.key}
			body, call, err := g.entryCallParts(spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.body {
				if !strings.Contains(body, want) {
					t.Errorf("the body statement has no %q:\n%s", want, body)
				}
			}
			if got := spec.sentBody(tc.in); tc.sent != "" && got != tc.sent {
				t.Errorf("the body printed: %s, want %s (as sent)", got, tc.sent)
			}
			if !strings.Contains(strings.Join(spec.Approximations, "\n"), "the JSON body is a ") {
				t.Errorf("the approximations do not say how the body is built: %q", spec.Approximations)
			}
			for _, in := range spec.Inputs {
				if strings.HasPrefix(in.Path, JSONFieldPrefix) {
					t.Errorf("a body field became an input of random runs: %s", in.Path)
				}
			}
			fn, _, err := g.lookupFunc(tc.key)
			if err != nil {
				t.Fatal(err)
			}
			routed := g.routedCall(strings.ReplaceAll(call, "zzrt.", "zzrt"), fn, tc.in)
			for _, want := range tc.route {
				if !strings.Contains(routed, want) {
					t.Errorf("the routed call has no %q:\n%s", want, routed)
				}
			}
			if strings.Contains(routed, "Context(ctx, in)") {
				t.Errorf("the routed call still builds the context itself:\n%s", routed)
			}
		})
	}
}

func TestRouteParams(t *testing.T) {
	if !routeHas("/members/:id/files/*path", []string{"id", "path"}) || routeHas("/members/:id", []string{"id", "code"}) {
		t.Error("routeHas does not read gin's path parameters")
	}
	if !routeHas("/static/*", []string{"*"}) {
		t.Error("routeHas does not read echo's wildcard")
	}
	if got := syntheticRoute([]string{"*", "a", "b"}); got != "/zzdbverify/:a/:b/*" {
		t.Errorf("syntheticRoute = %q", got)
	}
}
