package table

import (
	"reflect"
	"testing"
)

// Wire writes string labels as codes by first appearance (the decoder, the second module's, is
// tested in bindings/moreapi).
func TestCodedLabelsWire(t *testing.T) {
	raw := rawsOf(KindSamples, Labels{Strings: []string{"b", "", "b", "é"}})
	if !reflect.DeepEqual(raw[1].Ints, []int32{0, 1, 0, 2}) {
		t.Errorf("Wire codes %v", raw[1].Ints)
	}
}
