package accounting

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
)

// keysOf lists the keys each mechanism reads besides mechanism and count.
var keysOf = map[string][]string{
	Gaussian:           {"sigma", "sensitivity"},
	Laplace:            {"scale", "sensitivity"},
	Geometric:          {"epsilon"},
	RandomizedResponse: {"epsilon"},
	Pure:               {"epsilon"},
	Approximate:        {"epsilon", "delta"},
	Channel:            {"channel", "graph"},
	Subsampled:         {"rate", "of"},
}

// DecodeEvents reads events written as JSON (an array of objects such as
// {"mechanism": "gaussian", "sigma": 2, "count": 10}); a number may also be written
// {"$number": "NaN"} (or "Infinity", "-Infinity") so that a caller's non-finite value is named
// rather than lost. Errors name the event and key ("events[1].sigma"). The events are not
// validated beyond their shape: Validate (called by Epsilon and the rest) checks the values.
func DecodeEvents(text string) ([]Event, error) {
	var raw any
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, argerr.New("events", "not readable as JSON: %v", err)
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, argerr.New("events", "expected an array of events, got %s", jsonKind(raw))
	}
	out := make([]Event, len(list))
	for i, v := range list {
		if err := decodeEvent(v, fmt.Sprintf("events[%d]", i), &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func decodeEvent(v any, name string, e *Event) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return argerr.New(name, "expected an event object {mechanism, ...}, got %s", jsonKind(v))
	}
	mech, ok := obj["mechanism"].(string)
	if !ok {
		if obj["mechanism"] == nil {
			return argerr.New(name+".mechanism", "missing; expected one of %s", strings.Join(Mechanisms, ", "))
		}
		return argerr.New(name+".mechanism", "expected a string, got %s", jsonKind(obj["mechanism"]))
	}
	e.Mechanism = mech
	keys, known := keysOf[mech]
	if !known {
		return validateEvent(e, name, false) // the unknown mechanism, with "did you mean"
	}
	valid := append([]string{"mechanism", "count"}, keys...)
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !contains(valid, k) {
			msg := fmt.Sprintf("unknown key %q for mechanism '%s'", k, mech)
			if near := nearest(k, valid); near != "" && near != RandomizedResponse {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			}
			return argerr.New(name, "%s; valid keys: %s", msg, strings.Join(valid, ", "))
		}
	}
	if c, ok := obj["count"]; ok && c != nil {
		x, err := number(c, name+".count")
		if err != nil {
			return err
		}
		if !(x >= 1) || x != math.Trunc(x) || x > MaxCount {
			return argerr.New(name+".count", "expected a positive integer (at most 2^40), got %v", x)
		}
		e.Count = int(x)
	}
	for _, k := range keys {
		v, ok := obj[k]
		if !ok || v == nil {
			continue
		}
		var err error
		switch k {
		case "channel":
			e.Channel, err = matrix(v, name+".channel")
		case "graph":
			e.Graph, err = graphOf(v, name+".graph")
		case "of":
			e.Of = &Event{}
			err = decodeEvent(v, name+".of", e.Of)
		default:
			var x float64
			if x, err = number(v, name+"."+k); err == nil {
				// In Event a zero sensitivity means the default; here it was written.
				if k == "sensitivity" && !(x > 0 && x < math.Inf(1)) {
					return argerr.New(name+".sensitivity", "expected a positive finite number, got %v", x)
				}
				setField(e, k, x)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// setField stores a numeric key.
func setField(e *Event, k string, x float64) {
	switch k {
	case "sigma":
		e.Sigma = x
	case "sensitivity":
		e.Sensitivity = x
	case "scale":
		e.Scale = x
	case "epsilon":
		e.Epsilon = x
	case "delta":
		e.Delta = x
	case "rate":
		e.Rate = x
	}
}

// number reads a JSON number or {"$number": "NaN" | "Infinity" | "-Infinity"}.
func number(v any, name string) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case map[string]any:
		if s, ok := x["$number"].(string); ok && len(x) == 1 {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return f, nil
			}
		}
	}
	return 0, argerr.New(name, "expected a number, got %s", jsonKind(v))
}

// matrix reads an array of rows or {rows, cols, data}.
func matrix(v any, name string) (*mat.Dense, error) {
	if obj, ok := v.(map[string]any); ok {
		r, err1 := number(obj["rows"], name+".rows")
		c, err2 := number(obj["cols"], name+".cols")
		data, ok := obj["data"].([]any)
		if err1 != nil || err2 != nil || !ok || r != math.Trunc(r) || c != math.Trunc(c) || r < 1 || c < 1 || int(r)*int(c) != len(data) {
			return nil, argerr.New(name, "expected a matrix: an array of rows or {rows, cols, data} with rows×cols entries")
		}
		m := mat.NewDense(int(r), int(c), nil)
		for k, x := range data {
			f, err := number(x, name)
			if err != nil {
				return nil, argerr.Cell(name, k/int(c), k%int(c), "is %s, expected a number", jsonKind(x))
			}
			m.Set(k/int(c), k%int(c), f)
		}
		return m, nil
	}
	rows, ok := v.([]any)
	if !ok || len(rows) == 0 {
		return nil, argerr.New(name, "expected a matrix (an array of rows), got %s", jsonKind(v))
	}
	first, ok := rows[0].([]any)
	if !ok || len(first) == 0 {
		return nil, argerr.Row(name, 0, "is %s, expected an array of numbers", jsonKind(rows[0]))
	}
	m := mat.NewDense(len(rows), len(first), nil)
	for i, rv := range rows {
		row, ok := rv.([]any)
		if !ok || len(row) != len(first) {
			return nil, argerr.Row(name, i, "is %s, expected an array of %d numbers", jsonKind(rv), len(first))
		}
		for j, x := range row {
			f, err := number(x, name)
			if err != nil {
				return nil, argerr.Cell(name, i, j, "is %s, expected a number", jsonKind(x))
			}
			m.Set(i, j, f)
		}
	}
	return m, nil
}

// graphOf reads {n, edges: [[a, b], ...]}.
func graphOf(v any, name string) (*graph.Graph, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, argerr.New(name, "expected a graph {n, edges: [[a, b], ...]}, got %s", jsonKind(v))
	}
	n, err := number(obj["n"], name+".n")
	if err != nil || n != math.Trunc(n) || n < 1 || n > 1e6 {
		return nil, argerr.New(name+".n", "expected a positive integer")
	}
	list, _ := obj["edges"].([]any)
	edges := make([]graph.Edge, 0, len(list))
	for k, ev := range list {
		pair, ok := ev.([]any)
		var a, b float64
		var ea, eb error
		if ok && len(pair) == 2 {
			a, ea = number(pair[0], name)
			b, eb = number(pair[1], name)
		}
		if !ok || len(pair) != 2 || ea != nil || eb != nil || a != math.Trunc(a) || b != math.Trunc(b) {
			return nil, argerr.Item(name+".edges", "edge", k, "is not a pair of vertices")
		}
		edges = append(edges, graph.Edge{A: int(a), B: int(b)})
	}
	g, err := graph.New(int(n), edges)
	if err != nil {
		return nil, argerr.Rename(err, "graph", name)
	}
	return g, nil
}

// jsonKind names the JSON type of a value for messages.
func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		return "an array"
	}
	return "an object"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
