//go:build !unix

package explorer

// closeFuzzPipesOnExec: only a Unix fuzz worker inherits descriptors its
// children could keep open.
func closeFuzzPipesOnExec() {}
