package moreapi

import (
	"github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/lp"
)

// Limits are the sizes web/qif.js checks before it copies anything (written into web/api.gen.js).
var Limits = map[string]int{"lpMaxNonzeros": lp.MaxNonzeros}

// Namespaces lists the namespaces of this module in the order of the reference and the wire ids:
// channel holds only the functions the first module does not serve (api_channel.go).
var Namespaces = []string{"channel", "metric", "privacy", "graph", "mechanism", "refine", "infoPrivacy", "estimate", "accounting", "lp"}

// More is the module of web/qif-more.wasm (wasm/more), loaded on first use by the page.
var More = table.NewModule("more", Namespaces, channelAPI, metricAPI, privacyAPI, graphAPI, mechanismAPI, refineAPI, infoPrivacyAPI, estimateAPI, accountingAPI, lpAPI)
