// Package conelp solves the optimal-mechanism linear programs by decomposition over the
// columns of the mechanism.
package conelp
