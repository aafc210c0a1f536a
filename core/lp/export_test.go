package lp

// Dense builds a Problem from dense rows, for the tests of package lp_test (which import
// core/exact/ratlp, itself an importer of this package).
var Dense = dense
