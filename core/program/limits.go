package program

// Limits that keep every program finite in time and memory whatever a user types. The step and
// state budgets are options (Options); these are fixed.
const (
	// DefaultStepBudget is the number of loop iterations allowed for each secret value, summed
	// over its merged states (one iteration of one state counts one step).
	DefaultStepBudget = 1_000_000
	// DefaultStateBudget is the largest number of distinct states a distribution may hold.
	DefaultStateBudget = 100_000
	// MaxRows is the largest number of secret values (the product of the domains).
	MaxRows = 1 << 20
	// MaxEntries bounds rows × columns of the channel.
	MaxEntries = 8_000_000
	// MaxIntBits is the largest size of an integer value, in bits.
	MaxIntBits = 4096
	// MaxProbBits bounds the numerator plus denominator of a probability, in bits: a loop that
	// keeps halving a probability would otherwise make every step slower than the last.
	MaxProbBits = 8192
	// MaxValueSize bounds one value: characters of a string, elements of a list (counted
	// recursively).
	MaxValueSize = 100_000
	// MaxNesting bounds how deep lists and tuples nest in one another (`l = [l]` in a loop):
	// printing, comparing and merging values recurse as deep as they nest, and in WebAssembly
	// the stack is the JavaScript engine's.
	MaxNesting = 1000
	// MaxObserved is the largest number of values one run may observe.
	MaxObserved = 10_000
	// MaxWork bounds, for each secret value, the units of work that do not count as steps: the
	// elements built by list and string operations and the bytes compared to merge states.
	MaxWork = 200_000_000
	// MaxSourceBytes is the largest program text.
	MaxSourceBytes = 1 << 20
)
