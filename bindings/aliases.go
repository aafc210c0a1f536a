package bindings

import "github.com/qif-toolkit/qif/bindings/table"

// The table's vocabulary, from package table (which the exact module's table shares), under the
// names the api_*.go files use.
type (
	Func     = table.Func
	Param    = table.Param
	Kind     = table.Kind
	Check    = table.Check
	Type     = table.Type
	Field    = table.Field
	Args     = table.Args
	Obj      = table.Obj
	Strings  = table.Strings
	Callback = table.Callback
	Object   = table.Object
)

const (
	KindNumber    = table.KindNumber
	KindInteger   = table.KindInteger
	KindBoolean   = table.KindBoolean
	KindEnum      = table.KindEnum
	KindString    = table.KindString
	KindVector    = table.KindVector
	KindIndices   = table.KindIndices
	KindMatrix    = table.KindMatrix
	KindGraph     = table.KindGraph
	KindCallback  = table.KindCallback
	KindOptions   = table.KindOptions
	KindObject    = table.KindObject
	KindLPProblem = table.KindLPProblem

	CheckNone        = table.CheckNone
	CheckPositive    = table.CheckPositive
	CheckPositiveInf = table.CheckPositiveInf
	CheckNonNegative = table.CheckNonNegative
)

// Result types shared by many functions.
var (
	Number    = table.Number
	Boolean   = table.Boolean
	String    = table.String
	MatrixOut = table.MatrixOut
	VectorOut = table.VectorOut
	IntList   = table.IntList
	GraphOut  = table.GraphOut
)
