package graph

import "testing"

// Huge sizes must be refused before anything is allocated (a browser tab would die otherwise).
func TestFamiliesRefuseHugeSizes(t *testing.T) {
	if _, err := Path(1e9); err == nil {
		t.Error("Path(1e9): no error")
	}
	if _, err := Cycle(1e9); err == nil {
		t.Error("Cycle(1e9): no error")
	}
	if _, err := Grid(1<<53, 1<<53); err == nil {
		t.Error("Grid(2^53, 2^53): no error")
	}
	if _, err := Grid(MaxVertices+1, 1); err == nil {
		t.Error("Grid(MaxVertices+1, 1): no error")
	}
	if _, err := Clique(1e9); err == nil {
		t.Error("Clique(1e9): no error")
	}
}
