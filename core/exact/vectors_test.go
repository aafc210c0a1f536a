package exact

import (
	"encoding/json"
	"os"
	"testing"
)

// The exact reader against the number vectors the page's reader is tested with too
// (testdata/fractions.json): every text the engine accepts gives the stated fraction, and every
// other text is refused (the page reads those itself and sends the engine the fraction). The
// page reader's options (a decimal comma) mean nothing to the engine, which refuses such texts.
func TestParseSharedVectors(t *testing.T) {
	data, err := os.ReadFile("../../testdata/fractions.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Text   string  `json:"text"`
			Value  *string `json:"value"`
			Engine bool    `json:"engine"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 60 {
		t.Fatalf("only %d cases read", len(file.Cases))
	}
	for _, c := range file.Cases {
		r, err := Parse(c.Text)
		if !c.Engine {
			if err == nil {
				t.Errorf("Parse(%q) = %s, want a refusal (the engine reads plain numbers and fractions only)", c.Text, r.RatString())
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", c.Text, err)
			continue
		}
		if c.Value == nil || r.RatString() != *c.Value {
			t.Errorf("Parse(%q) = %s, want %v", c.Text, r.RatString(), *c.Value)
		}
	}
}
