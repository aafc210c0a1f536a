package table

import (
	"strings"
	"testing"
)

// A module registers the kinds only it takes; another module sees them as not decodable for
// itself; the same decoder may be registered by two modules, another one may not, and the
// interpreter's own kinds cannot be registered.
func TestRegisterKind(t *testing.T) {
	const k Kind = "testOnlyKind"
	defer delete(registered, k)
	decode := func(p *Param, raw []Raw) (any, error) { return raw[0].Str + "!", nil }
	if Decodable("a", k) {
		t.Fatal("decodable before any registration")
	}
	RegisterKind("a", decode, k)
	if !Decodable("a", k) || Decodable("b", k) || !Decodable("b", KindMatrix) {
		t.Error("Decodable does not follow the registrations")
	}
	v, err := decodeValue(&Param{Name: "x", Kind: k}, []Raw{{Type: RawString, Str: "hi"}})
	if err != nil || v != "hi!" {
		t.Errorf("decoded %v, %v", v, err)
	}
	RegisterKind("b", decode, k) // the same decoder from a second module
	if !Decodable("b", k) || len(Registered("b")) != 1 {
		t.Errorf("b: %v", Registered("b"))
	}
	panics := func(what string, f func()) {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), what) {
				t.Errorf("panic %v, want one saying %q", r, what)
			}
		}()
		f()
	}
	panics("another decoder", func() { RegisterKind("c", func(*Param, []Raw) (any, error) { return nil, nil }, k) })
	panics("read by the interpreter itself", func() { RegisterKind("c", decode, KindMatrix) })
	if _, err := decodeValue(&Param{Name: "x", Kind: "noSuchKind"}, []Raw{{Type: RawString}}); err == nil || !strings.Contains(err.Error(), "unknown kind") {
		t.Errorf("an unregistered kind: %v", err)
	}
}
