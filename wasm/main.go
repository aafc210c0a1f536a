//go:build js && wasm

// Command wasm is the entry point of the WebAssembly build (web/qif.wasm).
//
// The loader (web/qif.js) sets QIF_EXPORT to the name of a global callback before running the
// module; main calls it with the API object and then blocks forever so that the exported
// functions stay callable. Using a callback name chosen by the loader lets several instances
// live side by side in one JS realm.
package main

import (
	"os"
	"syscall/js"

	"github.com/qif-toolkit/qif/bindings"
)

func main() {
	name := os.Getenv("QIF_EXPORT")
	if name == "" {
		name = "__qifExport"
	}
	cb := js.Global().Get(name)
	if cb.Type() != js.TypeFunction {
		println("qif.wasm: no loader callback", name, "- load it through web/qif.js")
		return
	}
	// The callback returns the loader's helper object ({Failure}, the class of errors).
	helpers := cb.Invoke(js.Null())
	api := bindings.Export(helpers)
	api.Set("version", bindings.Version)
	cb.Invoke(api)
	select {}
}
